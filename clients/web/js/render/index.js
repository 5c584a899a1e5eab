// Renderers by engine name; any other engine gets the generic one.
import generic from './generic.js';
import ticTacToe from './tictactoe.js';
import newBedford from './newbedford.js';
import riverboat from './riverboat.js';
import phoenicia from './phoenicia.js';

const BY_ENGINE = {
  'tic-tac-toe': ticTacToe,
  'new-bedford': newBedford,
  riverboat,
  phoenicia,
};

export function rendererFor(engine) {
  return BY_ENGINE[engine] || generic;
}
