import { listCheck, unionCheck } from './exact-check.js';
import { asObject } from './object-shape.js';
import {
  type AnyShape,
  fail,
  type KnownField,
  type ReadMode,
  type Shape,
  type ShapeType,
  trail,
  VariantMark,
} from './shape.js';

/**
 * A list of `item`s: the list itself when every item was kept as it is, else a frozen copy
 * (always, when copying). `omit`: an item read as `undefined` is left out (never, here).
 */
export function list<T>(item: Shape<T>): Shape<readonly T[]> {
  const test = item.leaf?.test;
  const expected = item.leaf === undefined ? '' : `must be ${item.leaf.expected}`;
  const read = (value: unknown, mode: ReadMode): readonly T[] => {
    if (!Array.isArray(value)) fail('must be a list');
    const items: readonly unknown[] = value;
    let copy: unknown[] | undefined = mode === 'copy' ? [] : undefined;
    for (let at = 0; at < items.length; at++) {
      const raw = items[at];
      let read = raw;
      trail.push(at);
      if (test !== undefined) {
        if (!test(raw)) fail(expected);
      } else {
        read = item.read(raw, mode, undefined);
      }
      trail.pop();
      if (copy === undefined && read !== raw) copy = items.slice(0, at);
      copy?.push(read);
    }
    return copy === undefined ? (items as readonly T[]) : Object.freeze(copy as T[]);
  };
  return item.exact === undefined ? { read } : { read, exact: listCheck(item.exact) };
}

/** The shapes a union may choose from: objects or unions, each with its tags. */
type Variants = readonly [AnyShape, ...AnyShape[]];

/**
 * One of several shapes, chosen by the value of its `key` field (each variant declares it as a
 * `literal` or a `oneOf`). The field is read once, here; the variant does not read it again.
 */
export function union<const V extends Variants>(
  key: string,
  variants: V,
): Shape<ShapeType<V[number]>> {
  // Side by side, searched in order: a few tags are found faster so than in a map.
  const tags: unknown[] = [];
  const shapes: AnyShape[] = [];
  const marks: VariantMark[] = [];
  for (const variant of variants) {
    const variantTags = variant.tagsOf?.(key) ?? [];
    if (variantTags.length === 0) throw new TypeError(`a variant of this union declares no ${key}`);
    for (const tag of variantTags) {
      if (tags.includes(tag)) throw new TypeError(`two variants of this union are ${String(tag)}`);
      tags.push(tag);
      shapes.push(variant);
      marks.push(new VariantMark(String(tag)));
    }
  }
  const problem = `must be one of ${tags.join(', ')}`;
  const read = (value: unknown, mode: ReadMode, known: KnownField | undefined) => {
    const fields = asObject(value);
    const tag = fields[key];
    let at = 0;
    while (at < tags.length && tags[at] !== tag) at++;
    if (at === tags.length) {
      trail.push(key);
      fail(problem);
    }
    trail.push(marks[at] as VariantMark);
    // A caller's value gives the variant the tag read here, so that no field is read twice
    // (a getter may answer otherwise the second time); parsed data is read again, at no risk.
    const read = (shapes[at] as AnyShape).read(
      value,
      mode,
      mode === 'copy' ? { key, value: tag, outer: known } : undefined,
    );
    trail.pop();
    return read as ShapeType<V[number]>;
  };
  const tagsOf = (wanted: string): readonly unknown[] =>
    wanted === key
      ? tags
      : [...new Set(variants.flatMap((variant) => variant.tagsOf?.(wanted) ?? []))];
  const exact = unionCheck(
    key,
    tags,
    shapes.map((shape) => shape.exact),
  );
  return exact === undefined ? { read, tagsOf } : { read, tagsOf, exact };
}
