// Tic-Tac-Toe: the 3×3 grid; a free cell is clicked to play it. Every word from the catalog.
import { h } from '../dom.js';
import { catalog } from '../i18n.js';

function render(ctx) {
  const v = ctx.view;
  const cat = catalog('tic-tac-toe');
  const marks = v.marks || ['X', 'O'];
  const cells = (v.rows || ['...', '...', '...']).join('').split('');
  return h('div', { class: 'ttt-wrap' },
    h('div', { class: 'ttt', role: 'grid', 'aria-label': cat.t('view.board') }, [0, 1, 2].map((r) => h('div', { role: 'row', class: 'ttt-row' },
      [0, 1, 2].map((c) => {
        const i = r * 3 + c;
        const m = cells[i] === '.' ? '' : cells[i];
        return h('div', {
          role: 'gridcell', class: `ttt-cell ${m ? 'mark-' + m : 'empty'}`, 'data-cell': String(i),
          'data-pick-field': 'cell', 'data-pick-value': String(i),
          'aria-label': cat.t('label.cell', { row: r + 1, col: c + 1, mark: m || 'empty' }),
        }, m ? cat.t('label.mark', { mark: m }) : '');
      })))),
    h('p', { class: 'muted' }, marks.map((m, s) => cat.t('label.plays', { who: ctx.name(s), mark: m })).join(' · ')));
}

// A square by its row and column.
function fieldValue(key, value) {
  return key === 'cell' && Number.isInteger(value)
    ? catalog('tic-tac-toe').t('label.square', { row: Math.floor(value / 3) + 1, col: (value % 3) + 1 }) : null;
}

export default { render, fieldValue };
