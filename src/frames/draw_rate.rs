//! `draw_rate`: one row per (table, type, held, visible, turn, fold) bucket with units, summed
//! over the run's games of that table and fold (docs/definitions.md §3, §6, §8, §24): summed
//! over the folds they are §3's buckets of four-player (`players` 4) or three-player games.

use polars::prelude::*;

use crate::stats::draw_rate::cell_key;
use crate::stats::DrawRateCells;
use crate::tile;

pub(super) const NAME: &str = "draw_rate";

/// The frame from run-wide cell counts (cells with no units are left out).
pub(crate) fn frame(cells: &DrawRateCells) -> PolarsResult<DataFrame> {
    let mut tile_type = Vec::new();
    let mut tile_class = Vec::new();
    let mut held = Vec::new();
    let mut visible = Vec::new();
    let mut turn = Vec::new();
    let mut units = Vec::new();
    let mut hits = Vec::new();
    let mut naive = Vec::new();
    let mut fold = Vec::new();
    let mut players = Vec::new();
    for (p, c, f, counts) in cells.nonzero() {
        let (t, h, v, tu) = cell_key(c);
        tile_type.push(tile::type_name(t));
        tile_class.push(tile::type_class(t));
        held.push(h as i32);
        visible.push(v as i32);
        turn.push(tu as i32);
        units.push(counts.units as i64);
        hits.push(counts.hits as i64);
        naive.push(counts.naive_hits);
        fold.push(i32::from(f));
        players.push(p.seats() as i32);
    }
    DataFrame::new_infer_height(vec![
        Column::new("tile_type".into(), tile_type),
        Column::new("tile_class".into(), tile_class),
        Column::new("held".into(), held),
        Column::new("visible".into(), visible),
        Column::new("turn".into(), turn),
        Column::new("units".into(), units),
        Column::new("hits".into(), hits),
        Column::new("naive_hits".into(), naive),
        Column::new("fold".into(), fold),
        Column::new("players".into(), players),
    ])
}
