//! Danger estimators of docs/definitions.md §4: a non-negative weight per kind for
//! an observer O facing a riichi seat R, normalised to sum to 1.
//!
//! Notation (§4), for a suited kind k = (suit, n), n in 1..=9:
//! - r(x): remaining count of kind x for O (`DangerView::remaining`), 0 for a
//!   number outside 1..9;
//! - g(x): x is in the genbutsu set (`DangerView::genbutsu`), false outside 1..9;
//! - a = r(k) − 1 if O holds no copy of k, else r(k); a lies in −1..=3 for
//!   valid input (r(k) ≤ 4, and r(k) ≤ 3 when O holds a copy).
//!
//! Every estimator gives 0 to a kind k with g(k).

use std::fmt;

use crate::tile::KINDS;

use super::category::{categories_for, category_for, Category};
use crate::rules::Players;

/// What O knows at one moment of a §4 situation.
///
/// Invariant for valid input: `remaining[k] + observer_holds[k] ≤ 4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DangerView {
    /// r(k) = 4 − (publicly visible copies + copies in O's concealed hand), floored at 0.
    pub remaining: [u8; KINDS],
    /// g(k): k is in the genbutsu set (R's river at declaration plus every later discard).
    pub genbutsu: [bool; KINDS],
    /// Copies of k in O's concealed hand.
    pub observer_holds: [u8; KINDS],
    /// Publicly visible copies of k (for the §2 categories of `table` estimators).
    pub visible: [u8; KINDS],
    /// Four players or three: with three, 2m–8m are no kinds of the game (remaining 0, weight
    /// 0 under every estimator, left out of every metric) and 1m/9m have the `19m-*`
    /// categories (§24).
    pub players: Players,
}

impl DangerView {
    /// Builds the view from publicly visible copies, O's concealed copies and
    /// the genbutsu set: `remaining = 4 − visible − observer_holds` (saturating
    /// at 0).
    pub fn from_counts(
        visible: &[u8; KINDS],
        observer_holds: &[u8; KINDS],
        genbutsu: &[bool; KINDS],
    ) -> DangerView {
        DangerView::from_counts_for(visible, observer_holds, genbutsu, Players::Four)
    }

    /// [`DangerView::from_counts`] in a game of `players`: a kind the game does not have
    /// (with three players 2m–8m) has no remaining copy.
    pub fn from_counts_for(
        visible: &[u8; KINDS],
        observer_holds: &[u8; KINDS],
        genbutsu: &[bool; KINDS],
        players: Players,
    ) -> DangerView {
        DangerView {
            remaining: std::array::from_fn(|k| {
                if players.has_kind(k) {
                    4u8.saturating_sub(visible[k].saturating_add(observer_holds[k]))
                } else {
                    0
                }
            }),
            genbutsu: *genbutsu,
            observer_holds: *observer_holds,
            visible: *visible,
            players,
        }
    }

    /// §2 category of every kind at this moment, the genbutsu set standing for R's river
    /// (only `table` estimators need them).
    pub fn categories(&self) -> [Category; KINDS] {
        categories_for(&self.genbutsu, &self.visible, self.players)
    }

    /// r(x) for number `n` of the suit starting at kind `base`; 0 outside 1..=9.
    fn r(&self, base: usize, n: i32) -> i32 {
        if (1..=9).contains(&n) {
            i32::from(self.remaining[base + n as usize - 1])
        } else {
            0
        }
    }

    /// g(x) for number `n` of the suit starting at kind `base`; false outside 1..=9.
    fn g(&self, base: usize, n: i32) -> bool {
        (1..=9).contains(&n) && self.genbutsu[base + n as usize - 1]
    }

    /// a = r(k) − 1 if O holds no copy of k, else r(k).
    fn a(&self, k: usize) -> i32 {
        let r = i32::from(self.remaining[k]);
        if self.observer_holds[k] == 0 {
            r - 1
        } else {
            r
        }
    }
}

/// Error building a [`CategoryTable`].
///
/// `line` is the 1-based line of the CSV text (header = line 1) for
/// [`CategoryTable::from_csv`], the 1-based position in the slice for
/// [`CategoryTable::from_pairs`].
#[derive(Clone, Debug, PartialEq)]
pub enum TableError {
    /// The first non-blank line is not the header `category,weight`.
    MissingHeader { found: String },
    /// A data line does not have exactly two comma-separated fields.
    Malformed { line: usize, text: String },
    /// A category name that is not one of the 25 names (the 19 of §6, the `19m-*` of §24).
    UnknownCategory { line: usize, name: String },
    /// A category given more than once.
    Duplicate { line: usize, category: Category },
    /// A weight that is not a finite non-negative number.
    BadWeight {
        line: usize,
        category: Category,
        text: String,
    },
    /// Categories given no weight, in §6 order (never empty).
    Missing(Vec<Category>),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::MissingHeader { found } => write!(
                f,
                "category table: first line must be `category,weight`, found `{found}`"
            ),
            TableError::Malformed { line, text } => write!(
                f,
                "category table line {line}: expected `category,weight`, found `{text}`"
            ),
            TableError::UnknownCategory { line, name } => {
                write!(f, "category table line {line}: unknown category `{name}`")
            }
            TableError::Duplicate { line, category } => {
                write!(
                    f,
                    "category table line {line}: duplicate category `{category}`"
                )
            }
            TableError::BadWeight {
                line,
                category,
                text,
            } => write!(
                f,
                "category table line {line}: weight of `{category}` must be a finite \
                 non-negative number, found `{text}`"
            ),
            TableError::Missing(cs) => {
                let names: Vec<&str> = cs.iter().map(|c| c.name()).collect();
                write!(
                    f,
                    "category table: missing categories: {}",
                    names.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for TableError {}

/// A weight for each of the 19 §2 categories (and, for three-player games, the six `19m-*`
/// of §24), plus a display name.
///
/// Invariant: every weight is finite and ≥ 0; the six `19m-*` weights are all given or all
/// absent (0, and [`CategoryTable::covers`] is false for three players).
#[derive(Clone, Debug, PartialEq)]
pub struct CategoryTable {
    name: String,
    /// Boxed: an [`Estimator`] holding a table stays small.
    weights: Box<[f64; 25]>,
    /// The six `19m-*` categories have weights.
    three_player: bool,
}

impl CategoryTable {
    /// Name given by the constructors; change it with [`CategoryTable::with_name`].
    pub const DEFAULT_NAME: &'static str = "table";

    /// Parses a CSV table.
    ///
    /// Format: the first non-blank line is the header `category,weight`
    /// (required); then one line `name,weight` per category, with `name` one of
    /// the 19 §6 names ([`Category::name`]), or for a three-player game's table also the six
    /// `19m-*` of §24 (all six or none), and `weight` a finite number ≥ 0
    /// (Rust `f64` syntax). Each of the 19 (25) categories appears exactly once, in
    /// any order. Fields are trimmed of surrounding whitespace; blank lines, a
    /// UTF-8 byte-order mark and CRLF line ends are accepted. There is no
    /// quoting and no comment syntax.
    ///
    /// Errors: the first offending line (unknown category, duplicate,
    /// bad weight, wrong field count), else every missing category.
    pub fn from_csv(text: &str) -> Result<CategoryTable, TableError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty());
        match lines.next() {
            Some((_, header)) if is_header(header) => {}
            Some((_, other)) => {
                return Err(TableError::MissingHeader {
                    found: other.to_string(),
                })
            }
            None => {
                return Err(TableError::MissingHeader {
                    found: String::new(),
                })
            }
        }
        let mut builder = Builder::new();
        for (line, text) in lines {
            let fields: Vec<&str> = text.split(',').map(str::trim).collect();
            let [name, weight] = fields[..] else {
                return Err(TableError::Malformed {
                    line,
                    text: text.to_string(),
                });
            };
            let category =
                Category::from_name(name).ok_or_else(|| TableError::UnknownCategory {
                    line,
                    name: name.to_string(),
                })?;
            let value = weight.parse::<f64>().unwrap_or(f64::NAN);
            builder.set(line, category, value, weight)?;
        }
        builder.finish()
    }

    /// Builds a table from (category, weight) pairs; each of the 19 (or 25) categories
    /// exactly once, every weight finite and ≥ 0. Errors as [`CategoryTable::from_csv`],
    /// `line` being the 1-based position in `pairs`.
    pub fn from_pairs(pairs: &[(Category, f64)]) -> Result<CategoryTable, TableError> {
        let mut builder = Builder::new();
        for (i, &(category, value)) in pairs.iter().enumerate() {
            builder.set(i + 1, category, value, &value.to_string())?;
        }
        builder.finish()
    }

    /// The same table under another name (e.g. `phoenix-table`).
    pub fn with_name(mut self, name: impl Into<String>) -> CategoryTable {
        self.name = name.into();
        self
    }

    /// Display name; [`CategoryTable::DEFAULT_NAME`] unless set by [`CategoryTable::with_name`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Weight of category `c` (finite, ≥ 0).
    pub fn weight(&self, c: Category) -> f64 {
        self.weights[c.index()]
    }

    /// True when the table weighs every category of a game of `players` (a four-player
    /// table lacks the `19m-*` of three-player games).
    pub fn covers(&self, players: Players) -> bool {
        players == Players::Four || self.three_player
    }

    /// CSV text accepted by [`CategoryTable::from_csv`]: header, then the 19
    /// categories in §6 order (and the six `19m-*` when the table has them), weights in
    /// Rust's shortest round-trip notation.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("category,weight\n");
        let players = if self.three_player {
            Players::Three
        } else {
            Players::Four
        };
        for &c in Category::of(players) {
            out.push_str(&format!("{},{}\n", c.name(), self.weight(c)));
        }
        out
    }
}

fn is_header(line: &str) -> bool {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    fields == ["category", "weight"]
}

/// Collects weights, rejecting duplicates and bad values.
struct Builder {
    weights: [Option<f64>; 25],
}

impl Builder {
    fn new() -> Builder {
        Builder {
            weights: [None; 25],
        }
    }

    fn set(
        &mut self,
        line: usize,
        category: Category,
        value: f64,
        text: &str,
    ) -> Result<(), TableError> {
        let slot = &mut self.weights[category.index()];
        if slot.is_some() {
            return Err(TableError::Duplicate { line, category });
        }
        if !(value.is_finite() && value >= 0.0) {
            return Err(TableError::BadWeight {
                line,
                category,
                text: text.to_string(),
            });
        }
        // -0.0 passes `>= 0.0`; store it as +0.0.
        *slot = Some(value + 0.0);
        Ok(())
    }

    /// The 19 four-player categories are required; the six `19m-*` all or none.
    fn finish(self) -> Result<CategoryTable, TableError> {
        let three_player = Category::ALL[19..]
            .iter()
            .any(|c| self.weights[c.index()].is_some());
        let required = Category::of(if three_player {
            Players::Three
        } else {
            Players::Four
        });
        let missing: Vec<Category> = required
            .iter()
            .copied()
            .filter(|c| self.weights[c.index()].is_none())
            .collect();
        if !missing.is_empty() {
            return Err(TableError::Missing(missing));
        }
        Ok(CategoryTable {
            name: CategoryTable::DEFAULT_NAME.to_string(),
            weights: Box::new(self.weights.map(|w| w.unwrap_or(0.0))),
            three_player,
        })
    }
}

/// A §4 estimator.
#[derive(Clone, Debug, PartialEq)]
pub enum Estimator {
    /// `none`: 1 for every non-genbutsu kind.
    None,
    /// `combo` (コンボ理論): count of wait combinations.
    Combo,
    /// `dennou-old` (電脳麻将, earlier table): by suji category / honour count.
    DennouOld,
    /// `dennou` (電脳麻将, current table).
    Dennou,
    /// `dennou-new` (電脳麻将, proposed).
    DennouNew,
    /// `table` / `phoenix-table`: weight of the kind's category.
    Table(CategoryTable),
}

impl Estimator {
    /// The built-in estimators, in [`EstimatorName::BUILTINS`] order. They depend only on the
    /// situation, so a run can score them game by game.
    pub const BUILTINS: [Estimator; 5] = [
        Estimator::None,
        Estimator::Combo,
        Estimator::DennouOld,
        Estimator::Dennou,
        Estimator::DennouNew,
    ];

    /// `none`, `combo`, `dennou-old`, `dennou`, `dennou-new`, or the table's
    /// own name ([`CategoryTable::name`], `table` by default).
    pub fn name(&self) -> &str {
        match self {
            Estimator::None => EstimatorName::None.as_str(),
            Estimator::Combo => EstimatorName::Combo.as_str(),
            Estimator::DennouOld => EstimatorName::DennouOld.as_str(),
            Estimator::Dennou => EstimatorName::Dennou.as_str(),
            Estimator::DennouNew => EstimatorName::DennouNew.as_str(),
            Estimator::Table(t) => t.name(),
        }
    }
}

/// Every estimator a user can name, in report order: the five built-ins, the in-sample
/// `phoenix-table` and a user's `table`. The one list of estimator names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EstimatorName {
    None,
    Combo,
    DennouOld,
    Dennou,
    DennouNew,
    PhoenixTable,
    Table,
}

impl EstimatorName {
    pub const ALL: [EstimatorName; 7] = [
        EstimatorName::None,
        EstimatorName::Combo,
        EstimatorName::DennouOld,
        EstimatorName::Dennou,
        EstimatorName::DennouNew,
        EstimatorName::PhoenixTable,
        EstimatorName::Table,
    ];

    /// The built-ins ([`Estimator::BUILTINS`] order).
    pub const BUILTINS: [EstimatorName; 5] = [
        EstimatorName::None,
        EstimatorName::Combo,
        EstimatorName::DennouOld,
        EstimatorName::Dennou,
        EstimatorName::DennouNew,
    ];

    /// What a run scores and `haifu danger-eval` scores by default: all but `table`.
    pub const DEFAULT: [EstimatorName; 6] = [
        EstimatorName::None,
        EstimatorName::Combo,
        EstimatorName::DennouOld,
        EstimatorName::Dennou,
        EstimatorName::DennouNew,
        EstimatorName::PhoenixTable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EstimatorName::None => "none",
            EstimatorName::Combo => "combo",
            EstimatorName::DennouOld => "dennou-old",
            EstimatorName::Dennou => "dennou",
            EstimatorName::DennouNew => "dennou-new",
            EstimatorName::PhoenixTable => "phoenix-table",
            EstimatorName::Table => "table",
        }
    }

    /// The estimator named `s` (exact match).
    pub fn from_name(s: &str) -> Option<EstimatorName> {
        EstimatorName::ALL.into_iter().find(|e| e.as_str() == s)
    }

    /// The built-in estimator of this name; `None` for `phoenix-table` and `table`, which
    /// need a table.
    pub fn builtin(self) -> Option<Estimator> {
        EstimatorName::BUILTINS
            .iter()
            .position(|&b| b == self)
            .map(|i| Estimator::BUILTINS[i].clone())
    }
}

impl fmt::Display for EstimatorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Estimator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Unnormalised weight of kind `k` (0..34) under `est`: finite, ≥ 0, and 0 when g(k).
/// Panics if `k >= 34`.
pub fn raw_weight(est: &Estimator, view: &DangerView, k: usize) -> f64 {
    if view.genbutsu[k] || !view.players.has_kind(k) {
        return 0.0;
    }
    match est {
        Estimator::None => 1.0,
        Estimator::Combo => f64::from(combo(view, k)),
        Estimator::DennouOld => f64::from(dennou_old(view, k)),
        Estimator::Dennou => f64::from(dennou(view, k)),
        Estimator::DennouNew => dennou_new(view, k),
        Estimator::Table(t) => {
            t.weight(category_for(k, &view.genbutsu, &view.visible, view.players))
        }
    }
}

/// [`raw_weight`] for all 34 kinds (before normalisation); the estimator is matched once.
pub fn raw_weights(est: &Estimator, view: &DangerView) -> [f64; KINDS] {
    use std::array::from_fn;
    let mut w: [f64; KINDS] = match est {
        Estimator::None => [1.0; KINDS],
        Estimator::Combo => from_fn(|k| f64::from(combo(view, k))),
        Estimator::DennouOld => from_fn(|k| f64::from(dennou_old(view, k))),
        Estimator::Dennou => from_fn(|k| f64::from(dennou(view, k))),
        Estimator::DennouNew => from_fn(|k| dennou_new(view, k)),
        Estimator::Table(t) => {
            let cats = view.categories();
            from_fn(|k| t.weight(cats[k]))
        }
    };
    for (x, &g) in w.iter_mut().zip(&view.genbutsu) {
        if g {
            *x = 0.0;
        }
    }
    if view.players == Players::Three {
        // 2m–8m: no kinds of a three-player game.
        w[1..8].fill(0.0);
    }
    w
}

/// Raw weights divided by their sum, so that they sum to 1 (up to rounding).
///
/// All-zero rule: when every raw weight is 0 (e.g. every kind is genbutsu, or a
/// table giving 0 to every category present) the normalisation is undefined and
/// this returns all zeros; such a situation has no probability distribution and
/// the caller must exclude it (or report it separately) rather than score it.
/// No built-in estimator hits this rule in a §4 situation that passes the
/// exclusions: there a wait k has ¬g(k) and combo weight > 0, and then every
/// built-in gives k a positive raw weight. Only a `table` can, when it gives 0
/// to every category present among the non-genbutsu kinds.
pub fn weights(est: &Estimator, view: &DangerView) -> [f64; KINDS] {
    let raw = raw_weights(est, view);
    let sum: f64 = raw.iter().sum();
    if sum > 0.0 {
        raw.map(|w| w / sum)
    } else {
        [0.0; KINDS]
    }
}

/// Combo (コンボ理論) raw weight of kind `k`; 0 when g(k). The §4 exclusion
/// "any wait whose combo weight is 0 for O" tests this value.
pub fn combo_weight(view: &DangerView, k: usize) -> f64 {
    raw_weight(&Estimator::Combo, view, k)
}

/// Splits a suited kind into (first kind of its suit, number 1..=9).
fn suited(k: usize) -> Option<(usize, i32)> {
    (k < 27).then(|| (k - k % 9, (k % 9 + 1) as i32))
}

/// combo for a non-genbutsu kind.
fn combo(view: &DangerView, k: usize) -> i32 {
    let a = view.a(k);
    let pair = a.max(0);
    let triplet = match a {
        3.. => 3,
        2 => 1,
        _ => 0,
    };
    let Some((base, n)) = suited(k) else {
        return pair + triplet;
    };
    let (r, g) = (|x| view.r(base, x), |x| view.g(base, x));
    let left = if n - 2 < 1 || (n - 3 >= 1 && g(n - 3)) {
        0
    } else {
        r(n - 2) * r(n - 1)
    };
    let middle = if n - 1 < 1 || n + 1 > 9 {
        0
    } else {
        r(n - 1) * r(n + 1)
    };
    let right = if n + 2 > 9 || (n + 3 <= 9 && g(n + 3)) {
        0
    } else {
        r(n + 1) * r(n + 2)
    };
    pair + triplet + left + middle + right
}

/// dennou-old for a non-genbutsu kind.
fn dennou_old(view: &DangerView, k: usize) -> i32 {
    let Some((base, n)) = suited(k) else {
        return view.a(k).clamp(0, 3);
    };
    let g = |x| view.g(base, x);
    match n {
        1 => {
            if g(4) {
                3
            } else {
                6
            }
        }
        9 => {
            if g(6) {
                3
            } else {
                6
            }
        }
        2 | 8 => {
            if g(5) {
                4
            } else {
                8
            }
        }
        3 => {
            if g(6) {
                5
            } else {
                8
            }
        }
        7 => {
            if g(4) {
                5
            } else {
                8
            }
        }
        _ => match (g(n - 3), g(n + 3)) {
            (true, true) => 4,
            (false, false) => 12,
            _ => 8,
        },
    }
}

/// dennou for a non-genbutsu kind.
fn dennou(view: &DangerView, k: usize) -> i32 {
    let a = view.a(k);
    let Some((base, n)) = suited(k) else {
        return match a {
            3.. => 8,
            2 => 3,
            1 => 1,
            _ => 0,
        };
    };
    let pair = match a {
        2.. => 3,
        1 => 1,
        _ => 0,
    };
    let (r, g) = (|x| view.r(base, x), |x| view.g(base, x));
    let left = if n - 2 < 1 || r(n - 2).min(r(n - 1)) == 0 {
        0
    } else if n - 2 == 1 {
        3
    } else if g(n - 3) {
        0
    } else {
        10
    };
    let middle = if n - 1 < 1 || n + 1 > 9 || r(n - 1).min(r(n + 1)) == 0 {
        0
    } else {
        3
    };
    let right = if n + 2 > 9 || r(n + 1).min(r(n + 2)) == 0 {
        0
    } else if n + 2 == 9 {
        3
    } else if g(n + 3) {
        0
    } else {
        10
    };
    pair + left + middle + right
}

/// dennou-new for a non-genbutsu kind.
fn dennou_new(view: &DangerView, k: usize) -> f64 {
    let a = view.a(k);
    let Some((base, n)) = suited(k) else {
        return match a {
            3.. => 8.0,
            2 => 4.0 / 3.0,
            1 => 1.0 / 3.0,
            _ => 0.0,
        };
    };
    let pair = match a {
        3.. => 3.0,
        2 => 4.0 / 3.0,
        1 => 1.0 / 3.0,
        _ => 0.0,
    };
    let (r, g) = (|x| view.r(base, x), |x| view.g(base, x));
    // weight · r(x)·r(y) / 16
    let part = |weight: i32, x: i32, y: i32| f64::from(weight * r(x) * r(y)) / 16.0;
    let left = if n - 2 < 1 {
        0.0
    } else if n - 2 == 1 {
        part(3, n - 2, n - 1)
    } else if g(n - 3) {
        0.0
    } else {
        part(10, n - 2, n - 1)
    };
    let middle = if n - 1 < 1 || n + 1 > 9 {
        0.0
    } else {
        part(3, n - 1, n + 1)
    };
    let right = if n + 2 > 9 {
        0.0
    } else if n + 2 == 9 {
        part(3, n + 1, n + 2)
    } else if g(n + 3) {
        0.0
    } else {
        part(10, n + 1, n + 2)
    };
    pair + left + middle + right
}

#[cfg(test)]
mod tests {
    use super::*;

    // Kind indices: 1m=0 … 9m=8, 1p=9 … 9p=17, 1s=18 … 9s=26, 1z=27 … 7z=33.
    const M: usize = 0;
    const P: usize = 9;
    const Z: usize = 27;

    /// The hand-worked situation shared by the estimator tests.
    ///
    /// Genbutsu set: 4m, 5p, 1z.
    /// Public visible / O holds → r(k), a:
    ///   1m 0/0 → r 4, a 3      2m 1/0 → r 3, a 2      3m 0/2 → r 2, a 2 (held)
    ///   4m 1/0 → r 3 (g)       5m 2/0 → r 2, a 1      6m 0/1 → r 3, a 3 (held)
    ///   7m 4/0 → r 0, a −1 (kabe)   8m 1/0 → r 3, a 2   9m 0/0 → r 4, a 3
    ///   pinzu: 5p 1/0 → r 3 (g); every other p and s kind 0/0 → r 4, a 3
    ///   1z 1/0 (g)   2z 2/1 → r 1, a 1 (held)   3z 1/0 → r 3, a 2
    ///   4z 0/0 → r 4, a 3   5z 3/0 → r 1, a 0   6z 3/1 → r 0, a 0 (held)
    ///   7z 4/0 → r 0, a −1
    fn situation() -> DangerView {
        let mut visible = [0u8; KINDS];
        let mut holds = [0u8; KINDS];
        let mut genbutsu = [false; KINDS];
        for (k, v) in [(1, 1), (3, 1), (4, 2), (6, 4), (7, 1)] {
            visible[M + k] = v;
        }
        visible[P + 4] = 1;
        for (k, v) in [(0, 1), (1, 2), (2, 1), (3, 0), (4, 3), (5, 3), (6, 4)] {
            visible[Z + k] = v;
        }
        holds[M + 2] = 2;
        holds[M + 5] = 1;
        holds[Z + 1] = 1;
        holds[Z + 5] = 1;
        genbutsu[M + 3] = true;
        genbutsu[P + 4] = true;
        genbutsu[Z] = true;
        DangerView::from_counts(&visible, &holds, &genbutsu)
    }

    fn assert_normalised(est: &Estimator, view: &DangerView) -> [f64; KINDS] {
        let raw = raw_weights(est, view);
        let w = weights(est, view);
        let sum: f64 = w.iter().sum();
        assert!((sum - 1.0).abs() < 1e-12, "{}: sum {sum}", est.name());
        let total: f64 = raw.iter().sum();
        for k in 0..KINDS {
            assert!(raw[k] >= 0.0);
            assert!((w[k] - raw[k] / total).abs() < 1e-15);
        }
        w
    }

    #[test]
    fn view_from_counts() {
        let v = situation();
        assert_eq!(&v.remaining[0..9], &[4, 3, 2, 3, 2, 3, 0, 3, 4]);
        assert_eq!(&v.remaining[27..34], &[3, 1, 3, 4, 1, 0, 0]);
        assert_eq!(v.remaining[P + 4], 3);
        assert_eq!(v.remaining[P], 4);
        assert_eq!(v.categories()[M], Category::N19Suji);
        assert_eq!(v.categories()[Z + 4], Category::Honor3);
        assert_eq!(v.a(M + 2), 2); // holds: a = r
        assert_eq!(v.a(M + 6), -1); // r 0, holds none
        assert_eq!(v.a(Z + 5), 0); // r 0, holds one: a = r = 0
                                   // Saturation: 4 visible + 1 held (impossible in a game) gives 0, not a wrap.
        let mut vis = [0u8; KINDS];
        let mut holds = [0u8; KINDS];
        vis[0] = 4;
        holds[0] = 1;
        let v2 = DangerView::from_counts(&vis, &holds, &[false; KINDS]);
        assert_eq!(v2.remaining[0], 0);
    }

    #[test]
    fn none_estimator() {
        let v = situation();
        let est = Estimator::None;
        let raw = raw_weights(&est, &v);
        // 1 everywhere except the 3 genbutsu kinds 4m, 5p, 1z.
        assert_eq!(raw[M + 3], 0.0);
        assert_eq!(raw[P + 4], 0.0);
        assert_eq!(raw[Z], 0.0);
        assert_eq!(raw[Z + 6], 1.0); // even a kind with no copy left
        assert_eq!(raw.iter().sum::<f64>(), 31.0);
        let w = assert_normalised(&est, &v);
        assert_eq!(w[M], 1.0 / 31.0);
    }

    #[test]
    fn combo_estimator() {
        let v = situation();
        let raw = raw_weights(&Estimator::Combo, &v);
        // pair max(a,0) + triplet (3 if a≥3, 1 if a=2) + left + middle + right.
        // 1m: a 3 → 3+3; right (2m,3m) killed: 4m ≤ 9 and g(4m) (suji kill). = 6
        assert_eq!(raw[M], 6.0);
        // 2m: a 2 → 2+1; middle r1·r3 = 4·2 = 8; right (3m,4m): g(5m) no → 2·3 = 6. = 17
        assert_eq!(raw[M + 1], 17.0);
        // 3m (O holds 2, a = r = 2): 2+1; left (1m,2m) (n−3 = 0, no suji test) 4·3 = 12;
        // middle r2·r4 = 3·3 = 9; right (4m,5m): g(6m) no → 3·2 = 6. = 30
        assert_eq!(raw[M + 2], 30.0);
        // 4m genbutsu.
        assert_eq!(raw[M + 3], 0.0);
        // 5m: a 1 → 1+0; left (3m,4m): g(2m) no → 2·3 = 6; middle r4·r6 = 3·3 = 9;
        // right (6m,7m): r7 = 0 (kabe) → 0. = 16
        assert_eq!(raw[M + 4], 16.0);
        // 6m (O holds 1, a = r = 3): 3+3; left (4m,5m): g(3m) no → 3·2 = 6;
        // middle r5·r7 = 0 (kabe); right r7·r8 = 0 (kabe). = 12
        assert_eq!(raw[M + 5], 12.0);
        // 7m: a −1 → 0+0; left (5m,6m) killed by g(4m) (suji kill);
        // middle r6·r8 = 3·3 = 9; right (8m,9m): n+3 > 9 → 3·4 = 12. = 21
        assert_eq!(raw[M + 6], 21.0);
        // 8m: a 2 → 2+1; left r6·r7 = 0; middle r7·r9 = 0. = 3
        assert_eq!(raw[M + 7], 3.0);
        // 9m: a 3 → 3+3; left r7·r8 = 0. = 6
        assert_eq!(raw[M + 8], 6.0);
        // 2p: 3+3; middle 4·4 = 16; right (3p,4p) killed by g(5p). = 22
        assert_eq!(raw[P + 1], 22.0);
        // 4p: 3+3; left (2p,3p) 16; middle r3·r5 = 4·3 = 12; right r5·r6 = 12. = 46
        assert_eq!(raw[P + 3], 46.0);
        // Honours: 2z a 1 → 1; 3z a 2 → 2+1 = 3; 4z a 3 → 6;
        // 5z (3 visible, not held) a 0 → 0; 6z (3 visible, held) a 0 → 0; 7z a −1 → 0.
        assert_eq!(&raw[Z..34], &[0.0, 1.0, 3.0, 6.0, 0.0, 0.0, 0.0]);
        // Sums by suit: m 6+17+30+0+16+12+21+3+6 = 111;
        // p 22+22+50+46+0+46+50+22+22 = 280; s 22+38+54·5+38+22 = 390; z 10.
        assert_eq!(raw[0..9].iter().sum::<f64>(), 111.0);
        assert_eq!(raw[9..18].iter().sum::<f64>(), 280.0);
        assert_eq!(raw[18..27].iter().sum::<f64>(), 390.0);
        assert_eq!(raw.iter().sum::<f64>(), 791.0);
        let w = assert_normalised(&Estimator::Combo, &v);
        assert_eq!(w[M + 2], 30.0 / 791.0);
        assert_eq!(combo_weight(&v, M + 2), 30.0);
        assert_eq!(combo_weight(&v, Z + 4), 0.0);
    }

    #[test]
    fn dennou_old_estimator() {
        let v = situation();
        let raw = raw_weights(&Estimator::DennouOld, &v);
        // 1m: g(4m) suji → 3; 2m: g(5m) no → 8; 3m: g(6m) no → 8; 4m: 0;
        // 5m: neither 2m nor 8m → 12; 6m: neither 3m nor 9m → 12; 7m: g(4m) → 5;
        // 8m: 8; 9m: g(6m) no → 6.
        assert_eq!(&raw[0..9], &[3.0, 8.0, 8.0, 0.0, 12.0, 12.0, 5.0, 8.0, 6.0]);
        // Pinzu (g 5p): 1p 6, 2p g(5p) → 4, 3p 8, 4p (1p, 7p not g) 12, 5p 0,
        // 6p 12, 7p 8, 8p g(5p) → 4, 9p 6.
        assert_eq!(
            &raw[9..18],
            &[6.0, 4.0, 8.0, 12.0, 0.0, 12.0, 8.0, 4.0, 6.0]
        );
        // Honours min(max(a,0),3): 1z g → 0; 2z 1; 3z 2; 4z 3; 5z a 0 → 0;
        // 6z a 0 → 0; 7z a −1 → max → 0 (not −1).
        assert_eq!(&raw[Z..34], &[0.0, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0]);
        // Souzu 6+8+8+12·3+8+8+6 = 80; total 62 + 60 + 80 + 6 = 208.
        assert_eq!(raw.iter().sum::<f64>(), 208.0);
        assert_normalised(&Estimator::DennouOld, &v);
        // Both suji of a middle kind genbutsu: 1s and 7s also in the set.
        let mut both = v;
        both.genbutsu[18] = true;
        both.genbutsu[18 + 6] = true;
        let raw = raw_weights(&Estimator::DennouOld, &both);
        // 1s, 7s g → 0; 2s g(5s) no → 8; 3s g(6s) no → 8; 4s g(1s) and g(7s) → 4;
        // 5s neither 2s nor 8s → 12; 6s neither 3s nor 9s → 12; 8s g(5s) no → 8; 9s 6.
        assert_eq!(
            &raw[18..27],
            &[0.0, 8.0, 8.0, 4.0, 12.0, 12.0, 0.0, 8.0, 6.0]
        );
    }

    #[test]
    fn dennou_estimator() {
        let v = situation();
        let raw = raw_weights(&Estimator::Dennou, &v);
        // Suited pair part: a 3 → 3, a 2 → 3, a 1 → 1, else 0.
        // 1m: 3; right (2m,3m): min(3,2) > 0, n+2 ≠ 9, g(4m) → 0 (suji kill). = 3
        // 2m: 3; middle (1m,3m) 3; right (3m,4m): g(5m) no → 10. = 16
        // 3m: 3; left (1m,2m) penchan 3; middle 3; right (4m,5m) g(6m) no → 10. = 19
        // 5m: a 1 → 1; left (3m,4m) g(2m) no → 10; middle 3; right min(r6, r7) = 0 (kabe). = 14
        // 6m: 3; left (4m,5m) g(3m) no → 10; middle min(r5,r7) = 0; right min(r7,r8) = 0. = 13
        // 7m: a −1 → 0; left (5m,6m) g(4m) → 0; middle 3; right (8m,9m) n+2 = 9 → 3. = 6
        // 8m: a 2 → 3; left min(r6, r7) = 0; middle min(r7, r9) = 0. = 3
        // 9m: 3; left min(r7, r8) = 0. = 3
        assert_eq!(
            &raw[0..9],
            &[3.0, 16.0, 19.0, 0.0, 14.0, 13.0, 6.0, 3.0, 3.0]
        );
        // Pinzu: 1p 3+10 = 13; 2p 3+3+0 (g 5p) = 6; 3p 3+3+3+10 = 19;
        // 4p 3+10+3+10 = 26; 5p 0; 6p 26; 7p 3+10+3+3 = 19; 8p 3+0+3 = 6; 9p 13.
        assert_eq!(
            &raw[9..18],
            &[13.0, 6.0, 19.0, 26.0, 0.0, 26.0, 19.0, 6.0, 13.0]
        );
        // Honours: a 3 → 8, 2 → 3, 1 → 1: 1z 0, 2z 1, 3z 3, 4z 8, 5z 0, 6z 0, 7z 0.
        assert_eq!(&raw[Z..34], &[0.0, 1.0, 3.0, 8.0, 0.0, 0.0, 0.0]);
        // Souzu 13+16+19+26·3+19+16+13 = 174; total 77 + 128 + 174 + 12 = 391.
        assert_eq!(raw.iter().sum::<f64>(), 391.0);
        assert_normalised(&Estimator::Dennou, &v);
    }

    #[test]
    fn dennou_new_estimator() {
        let v = situation();
        let raw = raw_weights(&Estimator::DennouNew, &v);
        let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
        // Suited pair part: a 3 → 3, a 2 → 4/3, a 1 → 1/3. Sequences: w·r·r/16, no min() test.
        // 1m: 3; right (2m,3m) killed by g(4m). = 3
        assert_eq!(raw[M], 3.0);
        // 2m: 4/3; middle 3·r1·r3/16 = 3·4·2/16 = 24/16; right 10·r3·r4/16 = 10·2·3/16 = 60/16.
        //     = 4/3 + 84/16 = 79/12
        assert!(close(raw[M + 1], 79.0 / 12.0), "{}", raw[M + 1]);
        // 3m: 4/3; left penchan 3·4·3/16 = 36/16; middle 3·3·3/16 = 27/16;
        //     right 10·3·2/16 = 60/16. = 4/3 + 123/16 = 433/48
        assert!(close(raw[M + 2], 433.0 / 48.0), "{}", raw[M + 2]);
        // 5m: 1/3; left 10·2·3/16 = 60/16; middle 3·3·3/16 = 27/16; right 10·r6·r7/16 = 0 (kabe).
        //     = 1/3 + 87/16 = 277/48
        assert!(close(raw[M + 4], 277.0 / 48.0), "{}", raw[M + 4]);
        // 6m (held, a 3): 3; left 10·3·2/16 = 60/16; middle, right contain r7 = 0. = 27/4
        assert_eq!(raw[M + 5], 27.0 / 4.0);
        // 7m: a −1 → 0; left killed by g(4m); middle 3·3·3/16 = 27/16;
        //     right (n+2 = 9) 3·3·4/16 = 36/16. = 63/16
        assert_eq!(raw[M + 6], 63.0 / 16.0);
        // 8m: 4/3; left and middle contain r7 = 0. = 4/3
        assert!(close(raw[M + 7], 4.0 / 3.0));
        // 9m: 3.
        assert_eq!(raw[M + 8], 3.0);
        // Honours: a 3 → 8, 2 → 4/3, 1 → 1/3: 2z 1/3, 3z 4/3, 4z 8, 5z/6z/7z 0.
        assert!(close(raw[Z + 1], 1.0 / 3.0));
        assert!(close(raw[Z + 2], 4.0 / 3.0));
        assert_eq!(raw[Z + 3], 8.0);
        assert_eq!(&raw[Z + 4..34], &[0.0, 0.0, 0.0]);
        assert_eq!(raw[Z], 0.0);
        // 4s (all r 4): 3 + 10 + 3 + 10 (each ·16/16). = 26
        assert_eq!(raw[18 + 3], 26.0);
        assert_normalised(&Estimator::DennouNew, &v);
        // The penchan parts read their own two kinds: with r(2p) = 1 and r(8p) = 2,
        // 3p: 3 + penchan 3·r1p·r2p/16 = 12/16 + middle 3·r2p·r4p/16 = 12/16
        //     + right (4p,5p), g(6p) no, 10·4·3/16 = 120/16 = 3 + 144/16 = 12;
        // 7p: 3 + left (5p,6p), g(4p) no, 10·3·4/16 = 120/16 + middle 3·r6p·r8p/16 = 24/16
        //     + penchan 3·r8p·r9p/16 = 24/16 = 3 + 168/16 = 27/2.
        let mut thin = v;
        thin.remaining[P + 1] = 1;
        thin.remaining[P + 7] = 2;
        let raw = raw_weights(&Estimator::DennouNew, &thin);
        assert_eq!(raw[P + 2], 12.0);
        assert_eq!(raw[P + 6], 27.0 / 2.0);
    }

    fn numbered_table() -> CategoryTable {
        // weight = §6 position + 1: honor-0 1, …, honor-genbutsu 6, 19-musuji 7,
        // 19-suji 8, 19-genbutsu 9, 28-musuji 10, 28-suji 11, 28-genbutsu 12,
        // 37-musuji 13, 37-suji 14, 37-genbutsu 15, 456-musuji 16, 456-katasuji 17,
        // 456-nakasuji 18, 456-genbutsu 19.
        let pairs: Vec<(Category, f64)> = Category::ALL
            .into_iter()
            .map(|c| (c, (c.index() + 1) as f64))
            .collect();
        CategoryTable::from_pairs(&pairs).unwrap()
    }

    #[test]
    fn table_estimator() {
        let v = situation();
        let est = Estimator::Table(numbered_table());
        assert_eq!(est.name(), "table");
        let raw = raw_weights(&est, &v);
        // Manzu (g 4m): 1m 19-suji 8; 2m 28-musuji 10; 3m 37-musuji 13; 4m genbutsu 0;
        // 5m, 6m 456-musuji 16; 7m 37-suji 14; 8m 28-musuji 10; 9m 19-musuji 7.
        assert_eq!(
            &raw[0..9],
            &[8.0, 10.0, 13.0, 0.0, 16.0, 16.0, 14.0, 10.0, 7.0]
        );
        // 2p, 8p: 28-suji (g 5p) 11.
        assert_eq!(raw[P + 1], 11.0);
        assert_eq!(raw[P + 7], 11.0);
        // Honours by public visible count: 1z g 0; 2z 2 vis → 3; 3z 1 → 2; 4z 0 → 1;
        // 5z 3 → honor-3 4; 6z 3 → 4; 7z 4 → 5.
        assert_eq!(&raw[Z..34], &[0.0, 3.0, 2.0, 1.0, 4.0, 4.0, 5.0]);
        // Sums: m 94; p 7+11+13+16+0+16+13+11+7 = 94; s 7+10+13+16·3+13+10+7 = 108; z 19.
        assert_eq!(raw.iter().sum::<f64>(), 315.0);
        assert_normalised(&est, &v);
        // Genbutsu always 0, even if the table gives genbutsu categories weight.
        assert_eq!(raw[M + 3], 0.0);
    }

    #[test]
    fn all_zero_raw_weights_give_zero_weights() {
        let all = DangerView::from_counts(&[0; KINDS], &[0; KINDS], &[true; KINDS]);
        for est in [
            Estimator::None,
            Estimator::Combo,
            Estimator::DennouOld,
            Estimator::Dennou,
            Estimator::DennouNew,
            Estimator::Table(numbered_table()),
        ] {
            assert_eq!(weights(&est, &all), [0.0; KINDS], "{}", est.name());
        }
    }

    #[test]
    fn builtins_positive_where_combo_positive() {
        // The claim in the `weights` doc: ¬g(k) and combo(k) > 0 ⇒ every built-in > 0.
        // Checked on the shared situation and on every single-kind kabe (r = 0) variant of it.
        let base = situation();
        let mut views = vec![base];
        for k in 0..KINDS {
            let mut v = base;
            v.remaining[k] = 0;
            views.push(v);
        }
        for v in &views {
            for k in (0..KINDS).filter(|&k| combo_weight(v, k) > 0.0) {
                for est in &Estimator::BUILTINS {
                    let name = est.name();
                    assert!(raw_weight(est, v, k) > 0.0, "{name} kind {k}");
                }
            }
        }
    }

    #[test]
    fn names_and_parse() {
        for name in EstimatorName::BUILTINS {
            let e = name.builtin().unwrap();
            assert_eq!(e.name(), name.as_str());
            assert_eq!(e.to_string(), name.as_str());
            assert_eq!(EstimatorName::from_name(name.as_str()), Some(name));
        }
        assert_eq!(EstimatorName::Table.builtin(), None);
        assert_eq!(EstimatorName::PhoenixTable.builtin(), None);
        assert_eq!(EstimatorName::from_name("Combo"), None);
        for name in EstimatorName::ALL {
            assert_eq!(EstimatorName::from_name(name.as_str()), Some(name));
            assert_eq!(name.to_string(), name.as_str());
        }
        let t = Estimator::Table(numbered_table().with_name("phoenix-table"));
        assert_eq!(t.name(), "phoenix-table");
    }

    fn csv_of(table: &[(&str, &str)]) -> String {
        let mut s = String::from("category,weight\n");
        for (c, w) in table {
            s.push_str(&format!("{c},{w}\n"));
        }
        s
    }

    /// A four-player table's rows: its 19 categories.
    fn all_rows() -> Vec<(&'static str, &'static str)> {
        Category::of(Players::Four)
            .iter()
            .map(|c| (c.name(), "1.5"))
            .collect()
    }

    /// A table with the six `19m-*` categories weighs three-player games too; one with some
    /// of them only is refused, naming the missing ones; a four-player table does not cover
    /// three players and writes back its 19 rows.
    #[test]
    fn three_player_tables() {
        let four = CategoryTable::from_csv(&csv_of(&all_rows())).unwrap();
        assert!(four.covers(Players::Four) && !four.covers(Players::Three));
        assert_eq!(four.to_csv().lines().count(), 20);
        let mut rows = all_rows();
        rows.extend([("19m-0", "2"), ("19m-1", "1"), ("19m-2", "0.5")]);
        rows.extend([("19m-3", "0"), ("19m-4", "0"), ("19m-genbutsu", "0")]);
        let three = CategoryTable::from_csv(&csv_of(&rows)).unwrap();
        assert!(three.covers(Players::Three));
        assert_eq!(three.weight(Category::Man19_1), 1.0);
        assert_eq!(three.to_csv().lines().count(), 26);
        assert_eq!(CategoryTable::from_csv(&three.to_csv()).unwrap(), three);
        rows.truncate(rows.len() - 2);
        let err = CategoryTable::from_csv(&csv_of(&rows)).unwrap_err();
        assert_eq!(
            err,
            TableError::Missing(vec![Category::Man19_4, Category::Man19Genbutsu])
        );
    }

    #[test]
    fn csv_good() {
        let mut text = String::from("\u{feff}category , weight\r\n\r\n");
        for (i, c) in Category::ALL.into_iter().enumerate().rev() {
            text.push_str(&format!(" {} , {}\r\n", c.name(), i as f64 * 0.5));
        }
        let t = CategoryTable::from_csv(&text).unwrap();
        assert_eq!(t.name(), "table");
        assert_eq!(t.weight(Category::Honor0), 0.0);
        assert_eq!(t.weight(Category::N19Suji), 3.5);
        assert_eq!(t.weight(Category::N456Genbutsu), 9.0);
        // to_csv round-trips.
        assert_eq!(CategoryTable::from_csv(&t.to_csv()).unwrap(), t);
        // Exponent notation and zero are fine.
        let mut rows = all_rows();
        rows[0].1 = "2e-3";
        rows[1].1 = "0";
        let t = CategoryTable::from_csv(&csv_of(&rows)).unwrap();
        assert_eq!(t.weight(Category::Honor0), 0.002);
        assert_eq!(t.weight(Category::Honor1), 0.0);
        // A negative zero is stored as +0, so the table writes `0`, never `-0`.
        rows[2].1 = "-0";
        let t = CategoryTable::from_csv(&csv_of(&rows)).unwrap();
        assert!(t.weight(Category::Honor2).is_sign_positive());
        assert!(t.to_csv().contains("\nhonor-2,0\n"), "{}", t.to_csv());
    }

    #[test]
    fn csv_unknown_category() {
        let mut rows = all_rows();
        rows[3].0 = "honor-9";
        let err = CategoryTable::from_csv(&csv_of(&rows)).unwrap_err();
        assert_eq!(
            err,
            TableError::UnknownCategory {
                line: 5,
                name: "honor-9".into()
            }
        );
        assert!(err.to_string().contains("honor-9"), "{err}");
    }

    #[test]
    fn csv_missing_category() {
        let mut rows = all_rows();
        rows.retain(|(c, _)| *c != "37-suji" && *c != "honor-genbutsu");
        let err = CategoryTable::from_csv(&csv_of(&rows)).unwrap_err();
        assert_eq!(
            err,
            TableError::Missing(vec![Category::HonorGenbutsu, Category::N37Suji])
        );
        let msg = err.to_string();
        assert!(
            msg.contains("honor-genbutsu") && msg.contains("37-suji"),
            "{msg}"
        );
    }

    #[test]
    fn csv_other_errors() {
        // Duplicate.
        let mut rows = all_rows();
        rows.push(("19-suji", "2"));
        let err = CategoryTable::from_csv(&csv_of(&rows)).unwrap_err();
        assert_eq!(
            err,
            TableError::Duplicate {
                line: 21,
                category: Category::N19Suji
            }
        );
        assert!(err.to_string().contains("19-suji"));
        // Negative, non-numeric, non-finite weights.
        for bad in ["-1", "abc", "", "inf", "NaN"] {
            let mut rows = all_rows();
            rows[6].1 = bad;
            let err = CategoryTable::from_csv(&csv_of(&rows)).unwrap_err();
            assert_eq!(
                err,
                TableError::BadWeight {
                    line: 8,
                    category: Category::N19Musuji,
                    text: bad.into()
                }
            );
        }
        // Missing header.
        let text = csv_of(&all_rows());
        let no_header = text.split_once('\n').unwrap().1;
        assert!(matches!(
            CategoryTable::from_csv(no_header),
            Err(TableError::MissingHeader { .. })
        ));
        assert!(matches!(
            CategoryTable::from_csv(""),
            Err(TableError::MissingHeader { .. })
        ));
        // Wrong field count.
        let mut rows = all_rows();
        rows[0].1 = "1,2";
        assert_eq!(
            CategoryTable::from_csv(&csv_of(&rows)).unwrap_err(),
            TableError::Malformed {
                line: 2,
                text: "honor-0,1,2".into()
            }
        );
        // from_pairs: negative and duplicate.
        let mut pairs: Vec<(Category, f64)> = Category::ALL.map(|c| (c, 1.0)).to_vec();
        pairs[2].1 = -0.5;
        assert!(matches!(
            CategoryTable::from_pairs(&pairs),
            Err(TableError::BadWeight { line: 3, .. })
        ));
        pairs[2] = (Category::Honor0, 1.0);
        assert_eq!(
            CategoryTable::from_pairs(&pairs).unwrap_err(),
            TableError::Duplicate {
                line: 3,
                category: Category::Honor0
            }
        );
    }
}
