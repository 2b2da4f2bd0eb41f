//! DataFrame → aligned table, CSV, JSON.

use polars::prelude::*;
use serde_json::{Map, Value};

/// Output format of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Aligned columns with 95% intervals, for a person.
    Table,
    Csv,
    /// An array of row objects.
    Json,
}

/// The frame in the requested format; under a slice, a table starts with the slice's line,
/// JSON becomes `{"slice": {"where", "games", "hands"}, "rows": [...]}`, and CSV stays plain
/// (the caller says the slice on stderr).
pub(crate) fn render(
    df: &DataFrame,
    format: Format,
    slice: Option<&super::Slice>,
) -> PolarsResult<String> {
    Ok(match (format, slice) {
        (Format::Table, None) => to_table(df),
        (Format::Table, Some(s)) => format!("{}\n{}", s.header(), to_table(df)),
        (Format::Csv, _) => to_csv(df)?,
        (Format::Json, None) => to_json(df) + "\n",
        (Format::Json, Some(s)) => sliced_json(df, s) + "\n",
    })
}

/// A report's rows with the slice they come from, as pretty JSON.
pub(crate) fn sliced_json(df: &DataFrame, slice: &super::Slice) -> String {
    let value = serde_json::json!({"slice": slice.json(), "rows": rows_json(df)});
    serde_json::to_string_pretty(&value).expect("serialisable")
}

/// A cell as JSON (numbers stay numbers; NaN and null become null).
fn json_value(v: AnyValue<'_>) -> Value {
    match v {
        AnyValue::Null => Value::Null,
        AnyValue::Boolean(b) => Value::Bool(b),
        AnyValue::String(s) => Value::String(s.to_string()),
        AnyValue::StringOwned(s) => Value::String(s.to_string()),
        AnyValue::Float32(f) => {
            serde_json::Number::from_f64(f as f64).map_or(Value::Null, Value::Number)
        }
        AnyValue::Float64(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
        other => match other.extract::<i64>() {
            Some(i) => Value::from(i),
            None => Value::String(other.to_string()),
        },
    }
}

/// The frame as a JSON array of row objects.
pub(crate) fn to_json(df: &DataFrame) -> String {
    serde_json::to_string_pretty(&rows_json(df)).expect("serialisable")
}

/// The frame as a JSON value: an array of row objects.
pub(crate) fn rows_json(df: &DataFrame) -> Value {
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let columns = df.columns();
    let rows: Vec<Value> = (0..df.height())
        .map(|i| {
            let mut m = Map::new();
            for (name, c) in names.iter().zip(columns) {
                m.insert(name.clone(), json_value(c.get(i).unwrap_or(AnyValue::Null)));
            }
            Value::Object(m)
        })
        .collect();
    Value::Array(rows)
}

/// The frame as CSV with a header line.
pub(crate) fn to_csv(df: &DataFrame) -> PolarsResult<String> {
    let mut buf = Vec::new();
    let mut df = df.clone();
    CsvWriter::new(&mut buf)
        .include_header(true)
        .finish(&mut df)?;
    Ok(String::from_utf8(buf).expect("CSV is UTF-8"))
}

fn is_share(name: &str) -> bool {
    name.contains("share") || name.contains("rate") || name == "p"
}

fn fmt_cell(name: &str, v: &AnyValue<'_>) -> String {
    match v {
        AnyValue::Null => "-".into(),
        AnyValue::Float64(_) | AnyValue::Float32(_) => {
            let f = v.extract::<f64>().unwrap_or(f64::NAN);
            if f.is_nan() {
                "-".into()
            } else if is_share(name) {
                format!("{:.2}%", f * 100.0)
            } else if name.contains("income") {
                format!("{f:+.0}")
            } else if f.abs() >= 1000.0 {
                format!("{f:.0}")
            } else {
                format!("{f:.3}")
            }
        }
        AnyValue::String(s) => s.to_string(),
        AnyValue::StringOwned(s) => s.to_string(),
        other => other.to_string(),
    }
}

fn fmt_interval(name: &str, lo: &AnyValue<'_>, hi: &AnyValue<'_>) -> String {
    let (Some(lo), Some(hi)) = (lo.extract::<f64>(), hi.extract::<f64>()) else {
        return String::new();
    };
    if lo.is_nan() || hi.is_nan() {
        return String::new();
    }
    if is_share(name) {
        format!("[{:.2}, {:.2}]", lo * 100.0, hi * 100.0)
    } else if name == "stable_dan" {
        // §21: a dan, not points.
        format!("[{lo:.2}, {hi:.2}]")
    } else {
        format!("[{lo:+.0}, {hi:+.0}]")
    }
}

/// An aligned table for a person: a column `x` with siblings `x_lo` and `x_hi` is shown as one
/// column `x [95% CI]`; shares and rates as percentages, incomes as signed points.
pub(crate) fn to_table(df: &DataFrame) -> String {
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let has = |n: &str| names.iter().any(|x| x == n);
    let mut headers = Vec::new();
    let mut cells: Vec<Vec<String>> = vec![Vec::new(); df.height()];
    let mut numeric = Vec::new();
    for (ci, name) in names.iter().enumerate() {
        if name.ends_with("_lo") || name.ends_with("_hi") {
            let base = &name[..name.len() - 3];
            if has(base) && has(&format!("{base}_lo")) && has(&format!("{base}_hi")) {
                continue;
            }
        }
        let lohi = has(&format!("{name}_lo")) && has(&format!("{name}_hi"));
        headers.push(if lohi {
            format!("{name} [95% CI]")
        } else {
            name.clone()
        });
        let column = &df.columns()[ci];
        numeric.push(column.dtype().is_primitive_numeric());
        for (row, out) in cells.iter_mut().enumerate() {
            let v = column.get(row).unwrap_or(AnyValue::Null);
            let mut s = fmt_cell(name, &v);
            if lohi {
                let lo = df
                    .column(&format!("{name}_lo"))
                    .and_then(|c| c.get(row))
                    .unwrap_or(AnyValue::Null);
                let hi = df
                    .column(&format!("{name}_hi"))
                    .and_then(|c| c.get(row))
                    .unwrap_or(AnyValue::Null);
                let iv = fmt_interval(name, &lo, &hi);
                if !iv.is_empty() {
                    s = format!("{s} {iv}");
                }
            }
            out.push(s);
        }
    }
    let widths: Vec<usize> = (0..headers.len())
        .map(|c| {
            cells
                .iter()
                .map(|r| r[c].chars().count())
                .chain(std::iter::once(headers[c].chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    let line = |out: &mut String, row: &[String]| {
        let parts: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, s)| {
                let pad = widths[c] - s.chars().count();
                if numeric[c] {
                    format!("{}{s}", " ".repeat(pad))
                } else {
                    format!("{s}{}", " ".repeat(pad))
                }
            })
            .collect();
        out.push_str(parts.join("  ").trim_end());
        out.push('\n');
    };
    line(&mut out, &headers);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out.push_str(&rule.join("  "));
    out.push('\n');
    for r in &cells {
        line(&mut out, r);
    }
    out
}

/// Which value of a metric is the best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Best {
    Lowest,
    Highest,
    /// Nearest 1 (an observed / expected ratio).
    NearestOne,
    /// No value is marked (rows of different groups).
    Unmarked,
}

/// Rows as given, the `labels` columns first (left-aligned text, or integers), then each
/// metric with `digits` decimals and its best value (over the rows that have one) starred.
pub(crate) fn marked_table(
    df: &DataFrame,
    labels: &[&str],
    metrics: &[(&str, Best)],
    digits: usize,
) -> PolarsResult<String> {
    let mut rows: Vec<Vec<String>> = vec![Vec::new(); df.height()];
    for &l in labels {
        let c = df.column(l)?;
        for (i, row) in rows.iter_mut().enumerate() {
            row.push(match c.get(i)? {
                AnyValue::Null => "-".to_string(),
                AnyValue::String(s) => s.to_string(),
                AnyValue::StringOwned(s) => s.to_string(),
                v => v.to_string(),
            });
        }
    }
    for &(m, best) in metrics {
        let v = df.column(m)?.cast(&DataType::Float64)?;
        let v = v.f64()?;
        let vals: Vec<f64> = (0..df.height())
            .map(|i| v.get(i).unwrap_or(f64::NAN))
            .collect();
        let key = |x: f64| match best {
            Best::Lowest | Best::Unmarked => x,
            Best::Highest => -x,
            Best::NearestOne => (x - 1.0).abs(),
        };
        let winner =
            vals.iter()
                .copied()
                .filter(|x| !x.is_nan())
                .fold(None, |b: Option<f64>, x| match b {
                    Some(b) if key(b) <= key(x) => Some(b),
                    _ => Some(x),
                });
        for (i, x) in vals.iter().enumerate() {
            let star = match best {
                Best::Unmarked => "",
                _ if Some(*x) == winner => "*",
                _ => " ",
            };
            rows[i].push(format!("{x:.digits$}{star}"));
        }
    }
    let headers: Vec<&str> = labels
        .iter()
        .chain(metrics.iter().map(|(m, _)| m))
        .copied()
        .collect();
    let widths: Vec<usize> = (0..headers.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([headers[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let fmt_row = |cells: Vec<String>| -> String {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if c == 0 {
                    format!("{s:<w$}", w = widths[c])
                } else {
                    format!("{s:>w$}", w = widths[c])
                }
            })
            .collect();
        parts.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = fmt_row(headers.iter().map(|s| s.to_string()).collect());
    out.push_str(&fmt_row(widths.iter().map(|w| "-".repeat(*w)).collect()));
    for r in rows {
        out.push_str(&fmt_row(r));
    }
    Ok(out)
}

/// Rows as given: the `labels` columns, then each metric with 4 decimals and a star where the
/// row's `best_<metric>` column is true (the bundled by-turn reports mark their best rows so).
pub(crate) fn starred_table(
    df: &DataFrame,
    labels: &[&str],
    metrics: &[&str],
) -> PolarsResult<String> {
    let mut rows: Vec<Vec<String>> = vec![Vec::new(); df.height()];
    for &l in labels {
        let c = df.column(l)?;
        for (i, row) in rows.iter_mut().enumerate() {
            row.push(match c.get(i)? {
                AnyValue::Null => "-".to_string(),
                AnyValue::String(s) => s.to_string(),
                AnyValue::StringOwned(s) => s.to_string(),
                v => v.to_string(),
            });
        }
    }
    for &m in metrics {
        let v = df.column(m)?.cast(&DataType::Float64)?;
        let best = df.column(&format!("best_{m}"))?.bool()?.clone();
        for (i, row) in rows.iter_mut().enumerate() {
            let x = v.f64()?.get(i).unwrap_or(f64::NAN);
            let star = if best.get(i) == Some(true) { "*" } else { " " };
            row.push(format!("{x:.4}{star}"));
        }
    }
    let headers: Vec<&str> = labels.iter().chain(metrics).copied().collect();
    let text_columns: Vec<bool> = (0..headers.len())
        .map(|c| {
            c < labels.len()
                && df
                    .column(labels[c])
                    .is_ok_and(|x| x.dtype() == &DataType::String)
        })
        .collect();
    let widths: Vec<usize> = (0..headers.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([headers[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<String>| -> String {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if text_columns[c] {
                    format!("{s:<w$}", w = widths[c])
                } else {
                    format!("{s:>w$}", w = widths[c])
                }
            })
            .collect();
        parts.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(headers.iter().map(|s| s.to_string()).collect());
    out.push_str(&line(widths.iter().map(|w| "-".repeat(*w)).collect()));
    for r in rows {
        out.push_str(&line(r));
    }
    Ok(out)
}
