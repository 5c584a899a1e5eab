// Renderers by engine name; any other engine gets the generic one.
import generic from './generic.js';
import ticTacToe from './tictactoe.js';
import newBedford from './newbedford.js';
import riverboat from './riverboat.js';
import phoenicia from './phoenicia.js';
import founders from './founders.js';
import goofspiel from './goofspiel.js';

const BY_ENGINE = {
  'tic-tac-toe': ticTacToe,
  'new-bedford': newBedford,
  riverboat,
  phoenicia,
  'founders-of-gloomhaven': founders,
  goofspiel,
};

export function rendererFor(engine) {
  return BY_ENGINE[engine] || generic;
}
