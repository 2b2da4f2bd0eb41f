//! A batch of a frame's rows as Arrow arrays, each with the Parquet encoding it is written
//! with, and their encoding into one Parquet row group.
//!
//! Invariant: a string column with few distinct values is a dictionary array whose keys are the
//! producer's own codes, so writing it builds no string and hashes no value per row; the file
//! still declares the column as a plain string (the dictionary is Parquet's page encoding,
//! not a column type), exactly as polars writes a `String` column.

use polars::prelude::{
    ArrowSchema, CompatLevel, DataFrame, DataType, Field, IntoColumn, PolarsError, PolarsResult,
    Schema, SchemaExt, Series,
};
use polars_arrow::array::{
    Array, BooleanArray, DictionaryArray, MutableBinaryViewArray, PrimitiveArray, Utf8ViewArray,
};
use polars_arrow::bitmap::Bitmap;
use polars_arrow::datatypes::{ArrowDataType, IntegerType};
use polars_parquet::read::ParquetError;
use polars_parquet::write::{
    array_to_columns, get_dtype_encoding, Compressor, DynIter, DynStreamingIterator, Encoding,
    FallibleStreamingIterator, ParquetType, RowGroupIterColumns, WriteOptions,
};

/// The columns of one batch of rows, in schema order.
#[derive(Clone, Default)]
pub struct FrameChunk {
    schema: Schema,
    arrays: Vec<Box<dyn Array>>,
    encodings: Vec<Encoding>,
}

impl FrameChunk {
    fn with(
        mut self,
        name: &str,
        dtype: DataType,
        array: Box<dyn Array>,
        encoding: Encoding,
    ) -> Self {
        // A column of another length would be written as a file no reader can read back.
        assert!(
            self.arrays.is_empty() || self.arrays[0].len() == array.len(),
            "column {name} has {} rows, the chunk {}",
            array.len(),
            self.arrays[0].len()
        );
        self.schema.with_column(name.into(), dtype);
        self.arrays.push(array);
        self.encodings.push(encoding);
        self
    }

    /// A column of numbers or booleans, encoded as polars encodes its type.
    fn native(self, name: &str, dtype: DataType, array: Box<dyn Array>) -> Self {
        let encoding = get_dtype_encoding(array.dtype())[0];
        self.with(name, dtype, array, encoding)
    }

    pub(crate) fn int(self, name: &str, values: Vec<i32>) -> Self {
        self.native(
            name,
            DataType::Int32,
            PrimitiveArray::from_vec(values).boxed(),
        )
    }

    /// A column of numbers written plain: no dictionary is tried (polars estimates every
    /// integer column's cardinality to choose one, a hash per value), for the per-game count
    /// frames, whose LZ4 pages stay small anyway.
    pub(crate) fn plain_int(self, name: &str, values: Vec<i32>) -> Self {
        let array = PrimitiveArray::from_vec(values).boxed();
        self.with(name, DataType::Int32, array, Encoding::Plain)
    }

    /// A column of 64-bit numbers written plain (no dictionary is tried).
    pub(crate) fn plain_int64(self, name: &str, values: Vec<i64>) -> Self {
        let array = PrimitiveArray::from_vec(values).boxed();
        self.with(name, DataType::Int64, array, Encoding::Plain)
    }

    /// A column of numbers with nulls written plain (no dictionary is tried: polars would
    /// hash every value to estimate its cardinality).
    pub(crate) fn plain_opt_int(self, name: &str, values: Vec<Option<i32>>) -> Self {
        let array = PrimitiveArray::from(values).boxed();
        self.with(name, DataType::Int32, array, Encoding::Plain)
    }

    /// A column of numbers with nulls.
    pub(crate) fn opt_int(self, name: &str, values: Vec<Option<i32>>) -> Self {
        self.native(name, DataType::Int32, PrimitiveArray::from(values).boxed())
    }

    /// A column of numbers that a log's format may not record (null there). Without a null
    /// it is written exactly as [`FrameChunk::int`] (or, `plain`, [`FrameChunk::plain_int`])
    /// writes it, so that frames of mjlog games do not change.
    pub(crate) fn maybe_int(self, name: &str, values: Vec<Option<i32>>, plain: bool) -> Self {
        if values.iter().all(Option::is_some) {
            let values = values.into_iter().map(|v| v.unwrap_or_default()).collect();
            return if plain {
                self.plain_int(name, values)
            } else {
                self.int(name, values)
            };
        }
        let array = PrimitiveArray::from(values).boxed();
        if plain {
            self.with(name, DataType::Int32, array, Encoding::Plain)
        } else {
            self.native(name, DataType::Int32, array)
        }
    }

    /// A string column that a log's format may not record (null there); without a null,
    /// written as [`FrameChunk::text`] writes it.
    pub(crate) fn maybe_text(self, name: &str, values: &[Option<String>]) -> Self {
        if values.iter().all(Option::is_some) {
            let values: Vec<&str> = values
                .iter()
                .map(|v| v.as_deref().unwrap_or_default())
                .collect();
            return self.text(name, &values);
        }
        self.opt_text(name, values)
    }

    /// A column of floats with nulls.
    pub(crate) fn opt_float(self, name: &str, values: Vec<Option<f64>>) -> Self {
        self.native(
            name,
            DataType::Float64,
            PrimitiveArray::from(values).boxed(),
        )
    }

    /// A string column with nulls, encoded as polars encodes strings.
    pub(crate) fn opt_text(self, name: &str, values: &[Option<String>]) -> Self {
        let array = MutableBinaryViewArray::<str>::from_iter(values.iter().map(Option::as_deref));
        self.native(name, DataType::String, array.freeze().boxed())
    }

    pub(crate) fn float(self, name: &str, values: Vec<f64>) -> Self {
        self.native(
            name,
            DataType::Float64,
            PrimitiveArray::from_vec(values).boxed(),
        )
    }

    /// A boolean column that a log's format may not record (null there); without a null,
    /// written as [`FrameChunk::boolean`] writes it.
    pub(crate) fn maybe_boolean(self, name: &str, values: &[Option<bool>]) -> Self {
        if values.iter().all(Option::is_some) {
            let values: Vec<bool> = values.iter().map(|v| v.unwrap_or_default()).collect();
            return self.boolean(name, &values);
        }
        self.native(
            name,
            DataType::Boolean,
            BooleanArray::from(values.to_vec()).boxed(),
        )
    }

    pub(crate) fn boolean(self, name: &str, values: &[bool]) -> Self {
        self.native(
            name,
            DataType::Boolean,
            BooleanArray::from_slice(values).boxed(),
        )
    }

    /// A string column, encoded as polars encodes strings (dictionary pages when the
    /// estimated distinct values are few enough, else plain).
    pub(crate) fn text<S: AsRef<str>>(self, name: &str, values: &[S]) -> Self {
        self.native(
            name,
            DataType::String,
            Utf8ViewArray::from_slice_values(values).boxed(),
        )
    }

    /// A string column of distinct values (no dictionary is tried).
    pub(crate) fn unique_text<S: AsRef<str>>(self, name: &str, values: &[S]) -> Self {
        let array = Utf8ViewArray::from_slice_values(values).boxed();
        self.with(name, DataType::String, array, Encoding::Plain)
    }

    /// A string column whose rows `render` writes, one at a time into one reused buffer, written
    /// plain: for text that is mostly distinct row to row (the `choices` frame's legal sets),
    /// where a dictionary would hash every value and save little.
    pub(crate) fn rendered<T>(
        self,
        name: &str,
        rows: &[T],
        render: impl Fn(&T, &mut String),
    ) -> Self {
        let mut array = MutableBinaryViewArray::<str>::with_capacity(rows.len());
        let mut text = String::with_capacity(256);
        for r in rows {
            text.clear();
            render(r, &mut text);
            array.push_value(&text);
        }
        self.with(
            name,
            DataType::String,
            array.freeze().boxed(),
            Encoding::Plain,
        )
    }

    /// A string column whose rows are `labels[code]`, null where the code is `labels.len()`.
    pub(crate) fn labels(self, name: &str, labels: &[&str], codes: Vec<u32>) -> Self {
        let null = labels.len() as u32;
        let validity = codes
            .contains(&null)
            .then(|| Bitmap::from_iter(codes.iter().map(|&c| c != null)));
        let keys = match validity {
            // A null row's key still has to index the dictionary.
            Some(_) => codes
                .iter()
                .map(|&c| if c == null { 0 } else { c })
                .collect(),
            None => codes,
        };
        let values =
            Utf8ViewArray::from_slice_values(if labels.is_empty() { &[""] } else { labels });
        let keys = PrimitiveArray::new(ArrowDataType::UInt32, keys.into(), validity);
        let dtype = ArrowDataType::Dictionary(
            IntegerType::UInt32,
            Box::new(ArrowDataType::Utf8View),
            false,
        );
        let array = DictionaryArray::try_new(dtype, keys, values.boxed())
            .expect("every code indexes the labels");
        self.with(
            name,
            DataType::String,
            array.boxed(),
            Encoding::RleDictionary,
        )
    }

    /// A string column of a handful of distinct values given row by row (`None` is null);
    /// each value is looked up among the labels seen so far.
    pub(crate) fn strings<'a>(
        self,
        name: &str,
        values: impl IntoIterator<Item = Option<&'a str>>,
    ) -> Self {
        let mut labels: Vec<&str> = Vec::new();
        let mut codes = Vec::new();
        let mut nulls = Vec::new();
        for v in values {
            match v {
                Some(v) => {
                    let code = labels.iter().position(|&l| l == v).unwrap_or_else(|| {
                        labels.push(v);
                        labels.len() - 1
                    });
                    codes.push(code as u32);
                }
                None => {
                    nulls.push(codes.len());
                    codes.push(0);
                }
            }
        }
        let null = labels.len() as u32;
        for i in nulls {
            codes[i] = null;
        }
        self.labels(name, &labels, codes)
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.arrays.first().map_or(0, |a| a.len())
    }

    pub(crate) fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The schema as the Parquet writer sees it.
    pub(crate) fn arrow_schema(&self) -> ArrowSchema {
        self.schema.to_arrow(CompatLevel::newest())
    }

    /// The rows as a polars frame (dictionary columns as plain strings), for in-process readers.
    pub fn into_dataframe(self) -> PolarsResult<DataFrame> {
        let columns = self
            .schema
            .iter_fields()
            .zip(self.arrays)
            .map(|(field, array): (Field, Box<dyn Array>)| {
                let array = match array.as_any().downcast_ref::<DictionaryArray<u32>>() {
                    Some(dict) => {
                        let labels = dict.values().as_any().downcast_ref::<Utf8ViewArray>();
                        let labels = labels.expect("label columns are strings");
                        let rows = dict
                            .keys()
                            .iter()
                            .map(|k| k.map(|&k| labels.value(k as usize)));
                        MutableBinaryViewArray::<str>::from_iter(rows)
                            .freeze()
                            .boxed()
                    }
                    None => array,
                };
                Ok(Series::from_arrow(field.name().clone(), array)?.into_column())
            })
            .collect::<PolarsResult<Vec<_>>>()?;
        DataFrame::new_infer_height(columns)
    }

    /// The chunk as one Parquet row group: pages encoded column by column and compressed as
    /// they are written (`fields` is the file's Parquet schema, in the same column order).
    pub(crate) fn row_group(
        &self,
        fields: &[ParquetType],
        options: WriteOptions,
    ) -> PolarsResult<RowGroupIterColumns<'static, PolarsError>> {
        let mut columns = Vec::with_capacity(self.arrays.len());
        for ((array, field), &encoding) in self.arrays.iter().zip(fields).zip(&self.encodings) {
            for pages in array_to_columns(array, field.clone(), options, &[encoding])? {
                let pages = pages.map(|p| p.map_err(|e| ParquetError::OutOfSpec(e.to_string())));
                let compressed = Compressor::new_from_vec(pages, options.compression, vec![])
                    .map_err(PolarsError::from);
                columns.push(Ok(DynStreamingIterator::new(compressed)));
            }
        }
        Ok(DynIter::new(columns.into_iter()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frames::FrameWriter;
    use polars::prelude::*;

    fn chunk(n: Vec<i32>, shapes: Vec<u32>, outcomes: &[Option<&str>]) -> FrameChunk {
        FrameChunk::default()
            .int("n", n)
            .labels("shape", &["tanki", "ryanmen"], shapes)
            .strings("outcome", outcomes.iter().copied())
            .unique_text("id", &["a", "b", "c"][..outcomes.len()])
    }

    /// Dictionary-encoded label columns are written as plain (nullable) string columns, and a
    /// later chunk's own dictionary does not leak into earlier rows.
    #[test]
    fn chunks_read_back_as_plain_string_columns() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = FrameWriter::new(dir.path()).unwrap();
        // Shape code 2 (= number of labels) is null; the second chunk's outcomes are all
        // null and its first outcome label differs from the first chunk's.
        let first = chunk(
            vec![1, 2, 3],
            vec![0, 2, 1],
            &[Some("win"), None, Some("draw")],
        );
        let second = chunk(vec![4, 5], vec![2, 1], &[None, Some("draw")]);
        let mut expected = first.clone().into_dataframe().unwrap();
        expected
            .vstack_mut(&second.clone().into_dataframe().unwrap())
            .unwrap();
        w.write_chunk("t", &first).unwrap();
        w.write_chunk("t", &second).unwrap();
        w.write_chunk("t", &FrameChunk::default().int("n", vec![]))
            .expect_err("a chunk with other columns is refused");
        w.finish().unwrap();
        w.commit("none").unwrap();

        let read = ParquetReader::new(std::fs::File::open(dir.path().join("t.parquet")).unwrap())
            .finish()
            .unwrap();
        let want = df!(
            "n" => [1, 2, 3, 4, 5],
            "shape" => [Some("tanki"), None, Some("ryanmen"), None, Some("ryanmen")],
            "outcome" => [Some("win"), None, Some("draw"), None, Some("draw")],
            "id" => ["a", "b", "c", "a", "b"],
        )
        .unwrap();
        assert_eq!(read.schema(), want.schema());
        assert!(read.equals_missing(&want), "{read}");
        assert!(expected.equals_missing(&want), "{expected}");
    }

    /// A column shorter than the others is refused at once (written, it makes a file whose
    /// reader panics on that column).
    #[test]
    #[should_panic(expected = "column b has 1 rows, the chunk 2")]
    fn a_column_of_another_length_is_refused() {
        let _ = FrameChunk::default().int("a", vec![1, 2]).int("b", vec![3]);
    }

    #[test]
    fn an_empty_chunk_writes_the_schema() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = FrameWriter::new(dir.path()).unwrap();
        w.write_chunk("t", &chunk(vec![], vec![], &[])).unwrap();
        w.finish().unwrap();
        w.commit("none").unwrap();
        let read = ParquetReader::new(std::fs::File::open(dir.path().join("t.parquet")).unwrap())
            .finish()
            .unwrap();
        assert_eq!(read.height(), 0);
        assert_eq!(read.schema().as_ref(), chunk(vec![], vec![], &[]).schema());
    }
}
