//! `parquet`: `<stem>.parquet`, one row per document, with the columns of the Dolma line: `id`,
//! `text`, `source`, `created`, and `metadata` as a struct of typed fields (strings, 64-bit
//! integers, doubles), `metadata.signals` a struct of a struct per filter (with `--signals`;
//! null without). DataTrove's `ParquetReader` makes the same `Document` of a row as its
//! `JsonlReader` makes of the Dolma line; pyarrow, DuckDB and Hugging Face `datasets` read it
//! as they are.
//!
//! Written with the `parquet` crate's own writer (no arrow-rs): zstd pages at the run's
//! `--zstd-level`, a row group per [`ROW_GROUP_TEXT_BYTES`] of text or [`ROW_GROUP_DOCS`]
//! documents, whichever comes first (a reader splits a file at row groups; memory per writer
//! stays near one row group). Plain encoding; a dictionary only for strings of few values
//! ([`Kind::Label`]); min/max per column chunk, none for strings that differ per document
//! (they cost bytes and prune nothing), no page index. The signals' columns are there only
//! when documents carry signals (`OutputOptions::signals`): 34 columns of nulls would cost a
//! small file several percent.
//!
//! Invariants: the bytes depend only on the documents and the zstd level (the footer's
//! `created_by` names the parquet crate's version, nothing of the machine or the time); a
//! file with no documents is a valid file of zero rows and the same schema; one column per
//! leaf of [`columns`], in its order, which is the schema's.

use super::{OutputFormat, OutputOptions, ShardInfo, ShardWrite};
use crate::atomic::AtomicFile;
use crate::document::Document;
use outward_filters::{SignalKind, SignalValue, Signals};
use parquet::basic::{Compression, LogicalType, Repetition, Type as PhysicalType, ZstdLevel};
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, Type, TypePtr};
use std::io;
use std::path::Path;
use std::sync::Arc;

/// A row group ends once its documents' text reaches this many bytes...
pub const ROW_GROUP_TEXT_BYTES: usize = 32 << 20;
/// ... or it holds this many documents.
pub const ROW_GROUP_DOCS: usize = 10_000;

/// The Parquet format.
pub struct Parquet {
    level: i32,
    signals: bool,
    schema: TypePtr,
    columns: Arc<Vec<Column>>,
}

impl Parquet {
    pub fn new(options: &OutputOptions) -> Parquet {
        let columns = columns(options.signals);
        Parquet {
            level: options.zstd_level,
            signals: options.signals,
            schema: schema(&columns),
            columns: Arc::new(columns),
        }
    }

    fn properties(&self) -> io::Result<WriterProperties> {
        let level = ZstdLevel::try_new(self.level).map_err(to_io)?;
        let mut builder = WriterProperties::builder()
            .set_compression(Compression::ZSTD(level))
            .set_dictionary_enabled(false)
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_offset_index_disabled(true);
        for column in self.columns.iter() {
            let path = ColumnPath::new(column.path.iter().map(|p| p.to_string()).collect());
            builder = match column.kind {
                Kind::Label => builder.set_column_dictionary_enabled(path, true),
                Kind::Str => builder.set_column_statistics_enabled(path, EnabledStatistics::None),
                Kind::Int | Kind::Double => builder,
            };
        }
        Ok(builder.build())
    }
}

impl OutputFormat for Parquet {
    fn name(&self) -> &'static str {
        "parquet"
    }

    fn options_key(&self) -> String {
        format!(
            "zstd={}; row_group_text_bytes={ROW_GROUP_TEXT_BYTES}; row_group_docs={ROW_GROUP_DOCS}; signals={}",
            self.level, self.signals
        )
    }

    fn file_name(&self, stem: &str) -> String {
        format!("{stem}.parquet")
    }

    fn create(&self, dir: &Path, stem: &str) -> io::Result<Box<dyn ShardWrite>> {
        let file = AtomicFile::create(dir, &self.file_name(stem))?;
        let writer =
            SerializedFileWriter::new(file, self.schema.clone(), Arc::new(self.properties()?))
                .map_err(to_io)?;
        let buffers = self.columns.iter().map(Buffer::new).collect();
        Ok(Box::new(ParquetShard {
            writer: Some(writer),
            signals: self.signals,
            columns: self.columns.clone(),
            buffers,
            rows: 0,
            text_bytes: 0,
            documents: 0,
        }))
    }
}

fn to_io(e: ParquetError) -> io::Error {
    match e {
        ParquetError::External(e) => match e.downcast::<io::Error>() {
            Ok(e) => *e,
            Err(e) => io::Error::other(e),
        },
        e => io::Error::other(e),
    }
}

/// A value of one column in one row.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Cell<'a> {
    Null,
    Str(&'a str),
    Int(i64),
    Double(f64),
}

impl<'a> From<Option<&'a str>> for Cell<'a> {
    fn from(value: Option<&'a str>) -> Self {
        value.map_or(Cell::Null, Cell::Str)
    }
}

impl From<Option<u64>> for Cell<'_> {
    fn from(value: Option<u64>) -> Self {
        value.map_or(Cell::Null, |n| Cell::Int(n as i64))
    }
}

impl From<Option<f64>> for Cell<'_> {
    fn from(value: Option<f64>) -> Self {
        value.map_or(Cell::Null, Cell::Double)
    }
}

/// A column's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// UTF-8 string, mostly a different one per document (a text, an id, a URL): plain, with
    /// no min/max (they would cost bytes and prune nothing).
    Str,
    /// UTF-8 string of few distinct values (a language, a charset, a rule's name): dictionary
    /// encoded, with min/max.
    Label,
    /// 64-bit integer.
    Int,
    Double,
}

/// Where a column's values come from.
#[derive(Clone, Copy)]
enum Source {
    Field(for<'a> fn(&'a Document) -> Cell<'a>),
    /// The value at this index of [`Signals::values`].
    Signal(usize),
}

/// One leaf column of the schema.
struct Column {
    /// Its path: the group names, then its own.
    path: Vec<&'static str>,
    kind: Kind,
    /// Null allowed (a missing metadata field, a rule that does not apply).
    optional: bool,
    source: Source,
}

/// The group `metadata.signals`, the only optional group: null for a document without signals.
const SIGNALS: [&str; 2] = ["metadata", "signals"];

impl Column {
    fn in_signals(&self) -> bool {
        self.path.starts_with(&SIGNALS)
    }

    /// Its maximum definition level: one for the optional `signals` group, one for itself.
    fn max_def(&self) -> i16 {
        self.in_signals() as i16 + self.optional as i16
    }
}

/// Every leaf column, in schema order: the Dolma line's fields, in its order, with
/// `metadata.signals` when documents carry signals.
fn columns(signals: bool) -> Vec<Column> {
    fn field(
        path: &[&'static str],
        kind: Kind,
        optional: bool,
        get: for<'a> fn(&'a Document) -> Cell<'a>,
    ) -> Column {
        Column {
            path: path.to_vec(),
            kind,
            optional,
            source: Source::Field(get),
        }
    }
    use Kind::{Double, Int, Label, Str};
    const M: &str = "metadata";
    let mut columns = vec![
        field(&["id"], Str, false, |d| Cell::Str(&d.id)),
        field(&["text"], Str, false, |d| Cell::Str(&d.text)),
        field(&["source"], Label, false, |d| Cell::Str(d.source)),
        field(&["created"], Str, true, |d| d.created.as_deref().into()),
        field(&[M, "url"], Str, true, |d| d.metadata.url.as_deref().into()),
        field(&[M, "title"], Str, true, |d| {
            d.metadata.title.as_deref().into()
        }),
        field(&[M, "description"], Str, true, |d| {
            d.metadata.description.as_deref().into()
        }),
        field(&[M, "author"], Str, true, |d| {
            d.metadata.author.as_deref().into()
        }),
        field(&[M, "date_published"], Str, true, |d| {
            d.metadata.date_published.as_deref().into()
        }),
        field(&[M, "site_name"], Label, true, |d| {
            d.metadata.site_name.as_deref().into()
        }),
        field(&[M, "canonical_url"], Str, true, |d| {
            d.metadata.canonical_url.as_deref().into()
        }),
        field(&[M, "html_lang"], Label, true, |d| {
            d.metadata.html_lang.as_deref().into()
        }),
        field(&[M, "language"], Label, true, |d| {
            d.metadata.language.as_deref().into()
        }),
        field(&[M, "language_score"], Double, true, |d| {
            d.metadata.language_score.into()
        }),
        field(&[M, "warc_file"], Label, true, |d| {
            d.metadata.warc_file.as_deref().into()
        }),
        field(&[M, "warc_offset"], Int, true, |d| {
            d.metadata.warc_offset.into()
        }),
        field(&[M, "http_status"], Int, true, |d| {
            d.metadata.http_status.map(u64::from).into()
        }),
        field(&[M, "last_modified"], Str, true, |d| {
            d.metadata.last_modified.as_deref().into()
        }),
        field(&[M, "content_type"], Label, true, |d| {
            d.metadata.content_type.as_deref().into()
        }),
        field(&[M, "charset"], Label, false, |d| {
            Cell::Str(&d.metadata.charset)
        }),
        field(&[M, "charset_source"], Label, false, |d| {
            Cell::Str(&d.metadata.charset_source)
        }),
        field(&[M, "payload_digest"], Str, true, |d| {
            d.metadata.payload_digest.as_deref().into()
        }),
        field(&[M, "extractor"], Label, false, |d| {
            Cell::Str(&d.metadata.extractor)
        }),
        field(&[M, "site_pages"], Int, true, |d| {
            d.metadata.site_pages.map(u64::from).into()
        }),
        field(&[M, "template_removed"], Int, true, |d| {
            d.metadata.template_removed.map(u64::from).into()
        }),
        field(&[M, "site_rule"], Label, true, |d| {
            d.metadata.site_rule.as_deref().into()
        }),
        field(&[M, "text_chars"], Int, false, |d| {
            Cell::Int(d.metadata.text_chars as i64)
        }),
        field(&[M, "nodes_parsed"], Int, false, |d| {
            Cell::Int(d.metadata.nodes_parsed as i64)
        }),
        field(&[M, "nodes_total"], Int, false, |d| {
            Cell::Int(d.metadata.nodes_total as i64)
        }),
        field(&[M, "page_bytes"], Int, false, |d| {
            Cell::Int(d.metadata.page_bytes as i64)
        }),
        field(&[M, "bytes_parsed"], Int, false, |d| {
            Cell::Int(d.metadata.bytes_parsed as i64)
        }),
        field(&[M, "degraded"], Label, true, |d| {
            d.metadata.degraded.into()
        }),
        field(&[M, "extraction_confidence"], Double, true, |d| {
            d.metadata.extraction_confidence.into()
        }),
    ];
    if !signals {
        return columns;
    }
    for (i, signal) in Signals::FIELDS.iter().enumerate() {
        let (kind, optional) = match signal.kind {
            SignalKind::Count => (Int, false),
            SignalKind::Ratio => (Double, false),
            SignalKind::Rule => (Label, true),
        };
        columns.push(Column {
            path: vec![SIGNALS[0], SIGNALS[1], signal.group, signal.name],
            kind,
            optional,
            source: Source::Signal(i),
        });
    }
    columns
}

/// The message type of `columns`: groups made of consecutive columns that share a prefix.
fn schema(columns: &[Column]) -> TypePtr {
    let fields = group_fields(columns, 0);
    Arc::new(
        Type::group_type_builder("document")
            .with_fields(fields)
            .build()
            .expect("the document schema is valid"),
    )
}

/// The fields of the group at `depth` whose columns are `columns`.
fn group_fields(columns: &[Column], depth: usize) -> Vec<TypePtr> {
    let mut fields = Vec::new();
    let mut start = 0;
    while start < columns.len() {
        let name = columns[start].path[depth];
        let column = &columns[start];
        if column.path.len() == depth + 1 {
            fields.push(Arc::new(leaf(name, column)));
            start += 1;
            continue;
        }
        let end = start
            + columns[start..]
                .iter()
                .take_while(|c| c.path.len() > depth + 1 && c.path[depth] == name)
                .count();
        let repetition = if column.path[..=depth] == SIGNALS {
            Repetition::OPTIONAL
        } else {
            Repetition::REQUIRED
        };
        let group = Type::group_type_builder(name)
            .with_repetition(repetition)
            .with_fields(group_fields(&columns[start..end], depth + 1))
            .build()
            .expect("a group of the document schema is valid");
        fields.push(Arc::new(group));
        start = end;
    }
    fields
}

fn leaf(name: &str, column: &Column) -> Type {
    let (physical, logical) = match column.kind {
        Kind::Str | Kind::Label => (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)),
        Kind::Int => (PhysicalType::INT64, None),
        Kind::Double => (PhysicalType::DOUBLE, None),
    };
    let repetition = if column.optional {
        Repetition::OPTIONAL
    } else {
        Repetition::REQUIRED
    };
    Type::primitive_type_builder(name, physical)
        .with_repetition(repetition)
        .with_logical_type(logical)
        .build()
        .expect("a column of the document schema is valid")
}

/// One column's values of the row group being gathered.
struct Buffer {
    values: Values,
    /// Definition levels, one per row (empty for a column whose maximum level is 0).
    defs: Vec<i16>,
}

enum Values {
    Str(Vec<ByteArray>),
    Int(Vec<i64>),
    Double(Vec<f64>),
}

impl Buffer {
    fn new(column: &Column) -> Buffer {
        let values = match column.kind {
            Kind::Str | Kind::Label => Values::Str(Vec::new()),
            Kind::Int => Values::Int(Vec::new()),
            Kind::Double => Values::Double(Vec::new()),
        };
        Buffer {
            values,
            defs: Vec::new(),
        }
    }

    /// Adds one row's value; `signals_present` says whether the row has the `signals` group.
    fn push(&mut self, column: &Column, cell: Cell<'_>, signals_present: bool) -> io::Result<()> {
        let mut def = 0;
        if column.in_signals() {
            if !signals_present {
                self.defs.push(0);
                return Ok(());
            }
            def += 1;
        }
        match (&mut self.values, cell) {
            (_, Cell::Null) if column.optional => {}
            (Values::Str(values), Cell::Str(s)) => values.push(ByteArray::from(s.as_bytes())),
            (Values::Int(values), Cell::Int(n)) => values.push(n),
            (Values::Double(values), Cell::Double(x)) => values.push(x),
            _ => {
                return Err(io::Error::other(format!(
                    "parquet column {}: value {cell:?} does not fit",
                    column.path.join(".")
                )));
            }
        }
        if cell != Cell::Null {
            def += column.optional as i16;
        }
        if column.max_def() > 0 {
            self.defs.push(def);
        }
        Ok(())
    }

    fn clear(&mut self) {
        match &mut self.values {
            Values::Str(v) => v.clear(),
            Values::Int(v) => v.clear(),
            Values::Double(v) => v.clear(),
        }
        self.defs.clear();
    }
}

/// One file being written.
struct ParquetShard {
    /// `None` once finished.
    writer: Option<SerializedFileWriter<AtomicFile>>,
    /// The schema has `metadata.signals`.
    signals: bool,
    columns: Arc<Vec<Column>>,
    buffers: Vec<Buffer>,
    /// Rows gathered for the next row group, and their text's bytes.
    rows: usize,
    text_bytes: usize,
    documents: u64,
}

impl ParquetShard {
    /// Writes the gathered rows as one row group.
    fn flush_row_group(&mut self) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let writer = self
            .writer
            .as_mut()
            .ok_or_else(|| io::Error::other("parquet writer already failed"))?;
        let mut row_group = writer.next_row_group().map_err(to_io)?;
        for buffer in &mut self.buffers {
            let mut column = row_group
                .next_column()
                .map_err(to_io)?
                .ok_or_else(|| io::Error::other("parquet schema has fewer columns"))?;
            let defs = (!buffer.defs.is_empty()).then_some(&buffer.defs[..]);
            let written = match (column.untyped(), &buffer.values) {
                (ColumnWriter::ByteArrayColumnWriter(w), Values::Str(v)) => {
                    w.write_batch(v, defs, None)
                }
                (ColumnWriter::Int64ColumnWriter(w), Values::Int(v)) => {
                    w.write_batch(v, defs, None)
                }
                (ColumnWriter::DoubleColumnWriter(w), Values::Double(v)) => {
                    w.write_batch(v, defs, None)
                }
                _ => return Err(io::Error::other("parquet column of another type")),
            };
            written.map_err(to_io)?;
            column.close().map_err(to_io)?;
            buffer.clear();
        }
        row_group.close().map_err(to_io)?;
        self.rows = 0;
        self.text_bytes = 0;
        Ok(())
    }
}

impl ShardWrite for ParquetShard {
    fn write(&mut self, doc: &Document) -> io::Result<()> {
        if doc.metadata.signals.is_some() && !self.signals {
            return Err(io::Error::other(format!(
                "{}: a document with signals, in a parquet file made without them",
                doc.id
            )));
        }
        let signals = doc.metadata.signals.as_ref().map(Signals::values);
        for (column, buffer) in self.columns.iter().zip(&mut self.buffers) {
            let cell = match column.source {
                Source::Field(get) => get(doc),
                Source::Signal(i) => match signals.as_ref().map(|values| values[i]) {
                    None | Some(SignalValue::Rule(None)) => Cell::Null,
                    Some(SignalValue::Rule(Some(rule))) => Cell::Str(rule.as_str()),
                    Some(SignalValue::Count(n)) => Cell::Int(n as i64),
                    Some(SignalValue::Ratio(x)) => Cell::Double(x),
                },
            };
            buffer.push(column, cell, signals.is_some())?;
        }
        self.rows += 1;
        self.text_bytes += doc.text.len();
        self.documents += 1;
        if self.rows >= ROW_GROUP_DOCS || self.text_bytes >= ROW_GROUP_TEXT_BYTES {
            self.flush_row_group()?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> io::Result<ShardInfo> {
        self.flush_row_group()?;
        let writer = self
            .writer
            .take()
            .ok_or_else(|| io::Error::other("parquet writer already failed"))?;
        let file = writer.into_inner().map_err(to_io)?;
        Ok(ShardInfo {
            file: file.finish()?,
            documents: self.documents,
        })
    }
}

/// Calls `each` with the documents of a file this format wrote, in order, as the JSON values
/// of their Dolma lines (a null field is a key the line leaves out). A damaged file ends with
/// the error after the documents before the damage.
pub fn read_documents(path: &Path, each: &mut dyn FnMut(serde_json::Value)) -> io::Result<()> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(std::fs::File::open(path)?).map_err(to_io)?;
    for row in reader.get_row_iter(None).map_err(to_io)? {
        each(without_nulls(row.map_err(to_io)?.to_json_value()));
    }
    Ok(())
}

/// `value` without its null fields, at any depth: a Dolma line as a Parquet row keeps it.
pub fn without_nulls(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_nulls(v)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::schema::types::SchemaDescriptor;

    #[test]
    fn the_schema_has_one_leaf_per_column_in_order_with_its_levels() {
        let columns = columns(true);
        let descriptor = SchemaDescriptor::new(schema(&columns));
        assert_eq!(descriptor.num_columns(), columns.len());
        for (i, column) in columns.iter().enumerate() {
            let leaf = descriptor.column(i);
            assert_eq!(leaf.path().parts(), &column.path[..], "column {i}");
            assert_eq!(leaf.max_def_level(), column.max_def(), "{:?}", column.path);
            assert_eq!(leaf.max_rep_level(), 0);
        }
        let signals = columns.iter().filter(|c| c.in_signals()).count();
        assert_eq!(signals, Signals::FIELDS.len());
    }
}
