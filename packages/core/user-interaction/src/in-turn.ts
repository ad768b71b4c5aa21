// For a UI that shows one question at a time: the contract's one rule for asking a set in turn.
export { askEachInTurn } from './service/ask-each-in-turn.js';
