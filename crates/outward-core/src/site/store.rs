//! The site store's layout: a [`SiteMemoryBuilder`] written so that another run, another
//! machine or a merge can continue it (`outward sites build|merge`, `outward run --sites`),
//! and so that a run looks up one host without reading the others. The pipeline compresses
//! blocks and index (zstd) and does the file I/O; everything here is pure bytes.
//!
//! A store is an immutable sorted table of host records, like an SSTable:
//!
//! ```text
//! file   = MAGIC · block* · index · footer
//! block  = compressed ( u64 record length, record )*      hosts ascending by name, across
//!                                                          blocks too; about BLOCK_BYTES each
//! index  = compressed ( u64 blocks, per block: u64 offset, u64 compressed length,
//!                                              u32 length, name of its first host )
//! footer = u64 index offset, u64 index length, u64 hosts, u64 pages, 4 × u64 digests,
//!          u64 kept (bit 0: leaf texts, bit 1: layouts; see `SampleNeeds`; bits 32-63:
//!          the final store's cut, `Footer::min_host_pages`), MAGIC
//! record = u32 name length, name (UTF-8), u32 untracked pages,
//!          u32 page hashes, u32 fingerprints,
//!          page hashes × u64, fingerprints × (u64 hash, u32 pages holding it),
//!          u32 reference pages, each: u64 page hash, u32 URL length, URL,
//!                                     u32 fingerprints, fingerprints × u64,
//!                                     u32 leaves, each: u32 tag length, tag,
//!                                                       u32 text length, text,
//!                                     u32 signature slots, slots × u32,
//!                                     u32 rules, each: u32 length, rule, u32 score
//! ```
//!
//! All little-endian, every list sorted, so the same builder is always the same bytes. A run
//! keeps the index (one name per block) and reads the one block a host can be in; merging
//! stores and spilling a builder that outgrows its memory are streaming merges of records in
//! name order (see the pipeline's `sites`). The [`digest`] of a store is a fold of its
//! records, the same whether the records came from a file or from a builder in memory; the
//! footer holds one per [`SampleNeeds`] (a method's memory leaves aside the sample parts it
//! does not read, so a store and a run's own first read name the same memory alike).
//!
//! Leaves are kept for the first `leaves::BATCH_PAGES` reference pages of a host only (seed
//! 001's batch). Stores of an older format are refused with a message that says to rebuild
//! them.
//!
//! Bounded per host: at most [`MAX_STORED_PAGES`] page hashes (the smallest ones: a
//! deterministic sample that still recognises most repeated pages; the others are counted as
//! `untracked`) and at most [`MAX_STORED_PRINTS`] fingerprints (the most frequent, ties by
//! hash: block counts of 1 are the first to go, and they are the article text that never
//! becomes template). Within the bounds a store merges exactly like the builders it came from.
//!
//! Invariants: every reader here is total (any bytes give a value or an error, never a
//! panic, never an allocation larger than the input justifies); `read_record` of a record of
//! [`host_records`] gives back that host's builder when it is within the bounds.

use super::leaves::{Leaf, LeafSet};
use super::{HostAccumulator, PageSample, SampleLayout, SampleNeeds, SiteMemoryBuilder};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

/// First and last bytes of every store.
pub const MAGIC: &[u8; 8] = b"OWSITES5";
/// What every store format starts with; the last byte is its version.
const MAGIC_STEM: &[u8; 7] = b"OWSITES";
/// Bytes of records a block holds before the next record starts a new block (a single
/// larger record is a block alone). A lookup decompresses one block: 16 KiB costs a run
/// over 3,000 single-site hosts 20% fewer instructions for site memory than 64 KiB, for
/// stores 0.5% larger on the dev sets.
pub const BLOCK_BYTES: usize = 16 << 10;
/// Bytes of the footer.
pub const FOOTER_BYTES: usize = 9 * 8 + MAGIC.len();
/// Page hashes kept per host.
pub const MAX_STORED_PAGES: usize = 1 << 16;
/// Fingerprints kept per host.
pub const MAX_STORED_PRINTS: usize = 1 << 16;

/// Why bytes are not a site store (or not the part of one they should be).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    NotAStore,
    /// A store of another format version (the byte after `OWSITES`).
    OtherVersion(u8),
    /// The bytes end inside the named part.
    Truncated(&'static str),
    BadHostName,
    /// Bytes after the end of the named part.
    TrailingBytes(&'static str),
    /// Host names not in ascending order (in a block, or between blocks).
    Unsorted,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotAStore => write!(f, "not an outward site store (no OWSITES header)"),
            StoreError::OtherVersion(v) => write!(
                f,
                "site store format OWSITES{} is not the one this outward reads (OWSITES{}): rebuild it with `outward sites build`",
                *v as char, MAGIC[7] as char
            ),
            StoreError::Truncated(part) => write!(f, "site store cut short in its {part}"),
            StoreError::BadHostName => write!(f, "site store holds a host name that is not UTF-8"),
            StoreError::TrailingBytes(part) => {
                write!(f, "site store has bytes after the end of its {part}")
            }
            StoreError::Unsorted => write!(f, "site store's hosts are not in order"),
        }
    }
}

impl std::error::Error for StoreError {}

/// One host of a store: its name, its distinct pages, its record bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostRecord {
    pub name: String,
    pub pages: u64,
    pub bytes: Vec<u8>,
}

/// The records of `builder`'s hosts in ascending name order, each encoded when the iterator
/// reaches it (bounded per host, see the module header).
pub fn host_records(builder: &SiteMemoryBuilder) -> impl Iterator<Item = HostRecord> + '_ {
    let mut names: Vec<&String> = builder.hosts.keys().collect();
    names.sort();
    names.into_iter().map(|name| {
        let host = &builder.hosts[name];
        HostRecord {
            name: name.clone(),
            pages: u64::from(host.pages()),
            bytes: encode_host(name, host),
        }
    })
}

fn encode_host(name: &str, host: &HostAccumulator) -> Vec<u8> {
    let mut out = Vec::new();
    let mut pages: Vec<u64> = host.pages.iter().copied().collect();
    pages.sort_unstable();
    let dropped = pages.len().saturating_sub(MAX_STORED_PAGES);
    pages.truncate(MAX_STORED_PAGES);
    let mut prints: Vec<(u64, u32)> = host.counts.iter().map(|(&h, &c)| (h, c)).collect();
    if prints.len() > MAX_STORED_PRINTS {
        prints.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        prints.truncate(MAX_STORED_PRINTS);
    }
    prints.sort_unstable();
    let untracked = host.untracked.saturating_add(dropped as u32);
    put_text(&mut out, name);
    out.extend_from_slice(&untracked.to_le_bytes());
    out.extend_from_slice(&(pages.len() as u32).to_le_bytes());
    out.extend_from_slice(&(prints.len() as u32).to_le_bytes());
    for p in pages {
        out.extend_from_slice(&p.to_le_bytes());
    }
    for (h, c) in prints {
        out.extend_from_slice(&h.to_le_bytes());
        out.extend_from_slice(&c.to_le_bytes());
    }
    out.extend_from_slice(&(host.samples.len() as u32).to_le_bytes());
    for (page, sample) in &host.samples {
        out.extend_from_slice(&page.to_le_bytes());
        put_text(&mut out, &sample.url);
        out.extend_from_slice(&(sample.elements.len() as u32).to_le_bytes());
        for h in &sample.elements {
            out.extend_from_slice(&h.to_le_bytes());
        }
        out.extend_from_slice(&(sample.leaves.len() as u32).to_le_bytes());
        for (tag, text) in sample.leaves.iter() {
            put_text(&mut out, tag);
            put_text(&mut out, text);
        }
        let layout = &sample.layout;
        out.extend_from_slice(&(layout.signature.len() as u32).to_le_bytes());
        for slot in &layout.signature {
            out.extend_from_slice(&slot.to_le_bytes());
        }
        out.extend_from_slice(&(layout.rules.len() as u32).to_le_bytes());
        for (rule, score) in &layout.rules {
            put_text(&mut out, rule);
            out.extend_from_slice(&score.to_le_bytes());
        }
    }
    out
}

/// The builder of the one host `record` holds (exactly one record, nothing after it).
pub fn read_record(record: &[u8]) -> Result<SiteMemoryBuilder, StoreError> {
    let mut r = Reader { rest: record };
    let name_len = r.u32("host name")? as usize;
    let name = std::str::from_utf8(r.take(name_len, "host name")?)
        .map_err(|_| StoreError::BadHostName)?
        .to_string();
    let untracked = r.u32("host header")?;
    let n_pages = r.u32("host header")? as usize;
    let n_prints = r.u32("host header")? as usize;
    let page_bytes = r.take(n_pages.saturating_mul(8), "page hashes")?;
    let pages: HashSet<u64> = page_bytes.chunks_exact(8).map(le_u64).collect();
    let print_bytes = r.take(n_prints.saturating_mul(12), "fingerprints")?;
    let counts: HashMap<u64, u32> = print_bytes
        .chunks_exact(12)
        .map(|c| (le_u64(&c[..8]), le_u32(&c[8..])))
        .collect();
    let n_samples = r.u32("reference pages")? as usize;
    let mut samples = BTreeMap::new();
    for _ in 0..n_samples {
        let page = r.u64("reference pages")?;
        let url = r.text("reference pages")?;
        let n = r.u32("reference pages")? as usize;
        let elements = r
            .take(n.saturating_mul(8), "reference pages")?
            .chunks_exact(8)
            .map(le_u64)
            .collect();
        let n_leaves = r.u32("leaves")? as usize;
        let mut leaves = Vec::with_capacity(n_leaves.min(r.rest.len() / 8));
        for _ in 0..n_leaves {
            let tag = r.text("leaves")?;
            let text = r.text("leaves")?;
            leaves.push(Leaf { tag, text });
        }
        let n_slots = r.u32("layouts")? as usize;
        let signature = r
            .take(n_slots.saturating_mul(4), "layouts")?
            .chunks_exact(4)
            .map(le_u32)
            .collect();
        let n_rules = r.u32("layouts")? as usize;
        let mut rules = Vec::with_capacity(n_rules.min(r.rest.len() / 8));
        for _ in 0..n_rules {
            let rule = r.text("layouts")?;
            rules.push((rule, r.u32("layouts")?));
        }
        samples.insert(
            page,
            PageSample {
                url,
                elements,
                leaves: LeafSet::new(leaves),
                layout: SampleLayout { signature, rules },
            },
        );
    }
    let acc = HostAccumulator {
        pages,
        untracked,
        counts,
        samples,
    };
    let mut builder = SiteMemoryBuilder::default();
    builder.hosts.insert(name, acc);
    if !r.rest.is_empty() {
        return Err(StoreError::TrailingBytes("host record"));
    }
    Ok(builder)
}

/// The host name a record starts with and its distinct pages (the count [`read_record`]'s
/// builder gives for a record [`host_records`] wrote), from its header alone.
pub fn record_header(record: &[u8]) -> Result<(&str, u64), StoreError> {
    let mut r = Reader { rest: record };
    let len = r.u32("host name")? as usize;
    let name =
        std::str::from_utf8(r.take(len, "host name")?).map_err(|_| StoreError::BadHostName)?;
    let untracked = r.u32("host header")?;
    let pages = r.u32("host header")?;
    Ok((name, u64::from(pages.saturating_add(untracked))))
}

/// A block's records, as [`BlockWriter`] packs them (uncompressed), in order; an error ends
/// the iteration. Names are not checked here (see [`check_order`]).
pub fn block_records(block: &[u8]) -> impl Iterator<Item = Result<&[u8], StoreError>> {
    let mut r = Reader { rest: block };
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed || r.rest.is_empty() {
            return None;
        }
        let record = r
            .u64("block")
            .and_then(|len| r.take(usize::try_from(len).unwrap_or(usize::MAX), "block"));
        failed = record.is_err();
        Some(record)
    })
}

/// Records, in the order they come, must name strictly ascending hosts: `previous` is the
/// name before `name` (`None` for the first).
pub fn check_order(previous: Option<&str>, name: &str) -> Result<(), StoreError> {
    match previous {
        Some(p) if p >= name => Err(StoreError::Unsorted),
        _ => Ok(()),
    }
}

/// Packs records into blocks of about [`BLOCK_BYTES`] (uncompressed); the caller compresses
/// each finished block and writes it, then records where it went with [`Index::push`].
#[derive(Debug, Default)]
pub struct BlockWriter {
    block: Vec<u8>,
    first: Option<String>,
}

impl BlockWriter {
    /// Adds `record` of host `name`; returns the block it completed, if it did (the record
    /// then starts the next one): (name of its first host, its bytes).
    pub fn push(&mut self, name: &str, record: &[u8]) -> Option<(String, Vec<u8>)> {
        let full = (!self.block.is_empty() && self.block.len() + record.len() + 8 > BLOCK_BYTES)
            .then(|| self.take());
        if self.first.is_none() {
            self.first = Some(name.to_string());
        }
        self.block
            .extend_from_slice(&(record.len() as u64).to_le_bytes());
        self.block.extend_from_slice(record);
        full.flatten()
    }

    /// The last block, if it holds any record.
    pub fn finish(mut self) -> Option<(String, Vec<u8>)> {
        self.take()
    }

    fn take(&mut self) -> Option<(String, Vec<u8>)> {
        let first = self.first.take()?;
        Some((first, std::mem::take(&mut self.block)))
    }
}

/// Where one block is in the file, and its first host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockEntry {
    pub first: String,
    pub offset: u64,
    pub length: u64,
}

/// The blocks of a store, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Index {
    pub blocks: Vec<BlockEntry>,
}

impl Index {
    pub fn push(&mut self, first: String, offset: u64, length: u64) {
        self.blocks.push(BlockEntry {
            first,
            offset,
            length,
        });
    }

    /// The block the host `name` would be in (the last whose first host is not after it).
    pub fn block_for(&self, name: &str) -> Option<&BlockEntry> {
        let after = self.blocks.partition_point(|b| b.first.as_str() <= name);
        after.checked_sub(1).map(|i| &self.blocks[i])
    }

    /// The index's bytes (uncompressed).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&(self.blocks.len() as u64).to_le_bytes());
        for b in &self.blocks {
            out.extend_from_slice(&b.offset.to_le_bytes());
            out.extend_from_slice(&b.length.to_le_bytes());
            out.extend_from_slice(&(b.first.len() as u32).to_le_bytes());
            out.extend_from_slice(b.first.as_bytes());
        }
        out
    }

    /// Reads index bytes of a store whose blocks end by `blocks_end` (where its index
    /// starts): blocks in order, tiling the file from its magic, first hosts ascending.
    pub fn from_bytes(bytes: &[u8], blocks_end: u64) -> Result<Index, StoreError> {
        let mut r = Reader { rest: bytes };
        let n = r.u64("index")?;
        let mut index = Index::default();
        let mut end = MAGIC.len() as u64;
        for _ in 0..n {
            let offset = r.u64("index")?;
            let length = r.u64("index")?;
            let len = r.u32("index")? as usize;
            let first = std::str::from_utf8(r.take(len, "index")?)
                .map_err(|_| StoreError::BadHostName)?
                .to_string();
            if offset != end || offset.saturating_add(length) > blocks_end {
                return Err(StoreError::Truncated("index"));
            }
            check_order(index.blocks.last().map(|b| b.first.as_str()), &first)?;
            end = offset + length;
            index.push(first, offset, length);
        }
        if !r.rest.is_empty() {
            return Err(StoreError::TrailingBytes("index"));
        }
        Ok(index)
    }
}

/// The end of a store: where its index is, and what the whole store holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Footer {
    pub index_offset: u64,
    pub index_length: u64,
    pub hosts: u64,
    /// Distinct pages over all hosts.
    pub pages: u64,
    /// [`digest`] of the records, for each [`SampleNeeds`] (by [`needs_slot`]).
    pub digests: [u64; 4],
    /// What of the sample pages the records keep (`sites build --for METHOD` keeps what
    /// that method reads; a method reading more cannot use the store).
    pub kept: SampleNeeds,
    /// A final store leaves out the hosts of fewer distinct pages than this (0: a store
    /// that keeps every host). Runs whose `--site-min-pages` is at least this see the same
    /// memory as from the whole store; its left-out hosts can no longer be merged or
    /// updated, so neither is done with a final store.
    pub min_host_pages: u32,
}

impl Footer {
    /// The digest of the store's memory as a method reading `needs` sees it.
    pub fn digest(&self, needs: SampleNeeds) -> u64 {
        self.digests[needs_slot(needs)]
    }
}

/// Where the digest of `needs` is in [`Footer::digests`].
pub fn needs_slot(needs: SampleNeeds) -> usize {
    usize::from(needs.leaves) | usize::from(needs.layout) << 1
}

impl Footer {
    pub fn to_bytes(&self) -> [u8; FOOTER_BYTES] {
        let mut out = [0u8; FOOTER_BYTES];
        let words = [self.index_offset, self.index_length, self.hosts, self.pages];
        let kept = needs_slot(self.kept) as u64 | u64::from(self.min_host_pages) << 32;
        for (i, v) in words
            .into_iter()
            .chain(self.digests)
            .chain([kept])
            .enumerate()
        {
            out[i * 8..i * 8 + 8].copy_from_slice(&v.to_le_bytes());
        }
        out[72..].copy_from_slice(MAGIC);
        out
    }

    /// The footer of a store whose first bytes are `head` (at least the magic's length, or
    /// the whole file when shorter) and last [`FOOTER_BYTES`] are `tail`, of `file_bytes` in
    /// all.
    pub fn read(head: &[u8], tail: &[u8], file_bytes: u64) -> Result<Footer, StoreError> {
        check_magic(head)?;
        if tail.len() != FOOTER_BYTES || file_bytes < (MAGIC.len() + FOOTER_BYTES) as u64 {
            return Err(StoreError::Truncated("footer"));
        }
        if &tail[72..] != MAGIC || word_at(tail, 8) & 0xffff_ffff > 3 {
            return Err(StoreError::Truncated("footer"));
        }
        let word = |i: usize| word_at(tail, i);
        let footer = Footer {
            index_offset: word(0),
            index_length: word(1),
            hosts: word(2),
            pages: word(3),
            digests: [word(4), word(5), word(6), word(7)],
            kept: SampleNeeds {
                leaves: word(8) & 1 == 1,
                layout: word(8) & 2 == 2,
            },
            min_host_pages: (word(8) >> 32) as u32,
        };
        if footer.index_offset < MAGIC.len() as u64
            || footer.index_offset.saturating_add(footer.index_length)
                != file_bytes - FOOTER_BYTES as u64
        {
            return Err(StoreError::Truncated("footer"));
        }
        Ok(footer)
    }
}

/// Whether `head` starts like a store of this format.
pub fn check_magic(head: &[u8]) -> Result<(), StoreError> {
    if head.starts_with(MAGIC) {
        return Ok(());
    }
    Err(match head.strip_prefix(MAGIC_STEM) {
        Some([version, ..]) => StoreError::OtherVersion(*version),
        _ => StoreError::NotAStore,
    })
}

/// A fold of records in name order: a store's [`Footer::digests`], the same for the same
/// records however they were written (64-bit, not cryptographic: it names content in config
/// hashes). One fold per [`SampleNeeds`]: each leaves aside the sample parts its needs do not
/// read.
#[derive(Debug, Clone, Copy)]
pub struct Digests([u64; 4]);

impl Default for Digests {
    fn default() -> Self {
        Digests([0xcbf2_9ce4_8422_2325; 4])
    }
}

/// Which digests a part of a record goes into: every one, those reading leaves, those
/// reading layouts.
#[derive(Clone, Copy)]
enum Part {
    Common,
    Leaves,
    Layout,
}

impl Digests {
    /// Folds `record` in (an error when it is not a whole record).
    pub fn add(&mut self, record: &[u8]) -> Result<(), StoreError> {
        let mut r = Reader { rest: record };
        let mut start = record;
        // The bytes read since `start`, into the digests that read `part`.
        fn fold<'a>(digests: &mut [u64; 4], start: &mut &'a [u8], rest: &'a [u8], part: Part) {
            let slice = &start[..start.len() - rest.len()];
            *start = rest;
            for (slot, acc) in digests.iter_mut().enumerate() {
                let wanted = match part {
                    Part::Common => true,
                    Part::Leaves => slot & 1 == 1,
                    Part::Layout => slot & 2 == 2,
                };
                if wanted {
                    mix_slice(acc, slice);
                }
            }
        }
        let name_len = r.u32("host name")? as usize;
        r.take(name_len, "host name")?;
        r.u32("host header")?;
        let n_pages = r.u32("host header")? as usize;
        let n_prints = r.u32("host header")? as usize;
        r.take(n_pages.saturating_mul(8), "page hashes")?;
        r.take(n_prints.saturating_mul(12), "fingerprints")?;
        let n_samples = r.u32("reference pages")?;
        for _ in 0..n_samples {
            r.u64("reference pages")?;
            let url_len = r.u32("reference pages")? as usize;
            r.take(url_len, "reference pages")?;
            let n = r.u32("reference pages")? as usize;
            r.take(n.saturating_mul(8), "reference pages")?;
            fold(&mut self.0, &mut start, r.rest, Part::Common);
            let n_leaves = r.u32("leaves")?;
            for _ in 0..n_leaves.saturating_mul(2) {
                let len = r.u32("leaves")? as usize;
                r.take(len, "leaves")?;
            }
            fold(&mut self.0, &mut start, r.rest, Part::Leaves);
            let n_slots = r.u32("layouts")? as usize;
            r.take(n_slots.saturating_mul(4), "layouts")?;
            let n_rules = r.u32("layouts")?;
            for _ in 0..n_rules {
                let len = r.u32("layouts")? as usize;
                r.take(len, "layouts")?;
                r.u32("layouts")?;
            }
            fold(&mut self.0, &mut start, r.rest, Part::Layout);
        }
        fold(&mut self.0, &mut start, r.rest, Part::Common);
        if !r.rest.is_empty() {
            return Err(StoreError::TrailingBytes("host record"));
        }
        Ok(())
    }

    pub fn values(&self) -> [u64; 4] {
        self.0
    }
}

fn mix_slice(acc: &mut u64, slice: &[u8]) {
    let mut mix = |x: u64| {
        *acc = (*acc ^ x)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    };
    mix(slice.len() as u64);
    let mut words = slice.chunks_exact(8);
    for w in &mut words {
        mix(le_u64(w));
    }
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    mix(u64::from_le_bytes(last));
}

/// The digest of `builder`'s records as a method reading `needs` sees them: what a store of
/// it carries for `needs`, and what a store carries for a builder that kept only `needs`.
pub fn digest(builder: &SiteMemoryBuilder, needs: SampleNeeds) -> u64 {
    let mut d = Digests::default();
    for record in host_records(builder) {
        d.add(&record.bytes)
            .expect("a record just written reads back");
    }
    d.values()[needs_slot(needs)]
}

struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, part: &'static str) -> Result<&'a [u8], StoreError> {
        if self.rest.len() < n {
            return Err(StoreError::Truncated(part));
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(head)
    }

    fn u32(&mut self, part: &'static str) -> Result<u32, StoreError> {
        self.take(4, part).map(le_u32)
    }

    fn u64(&mut self, part: &'static str) -> Result<u64, StoreError> {
        self.take(8, part).map(le_u64)
    }

    /// A text written by [`put_text`] (invalid UTF-8 replaced).
    fn text(&mut self, part: &'static str) -> Result<String, StoreError> {
        let len = self.u32(part)? as usize;
        Ok(String::from_utf8_lossy(self.take(len, part)?).into_owned())
    }
}

/// Appends `text` with its length before it (u32), as [`Reader::text`] reads it.
fn put_text(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
}

/// The `i`th little-endian u64 of `bytes` (which hold it).
fn word_at(bytes: &[u8], i: usize) -> u64 {
    le_u64(&bytes[i * 8..])
}

fn le_u64(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[..8]);
    u64::from_le_bytes(w)
}

fn le_u32(b: &[u8]) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[..4]);
    u32::from_le_bytes(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::PagePrints;

    fn builder(host: &str, pages: u64) -> SiteMemoryBuilder {
        let mut b = SiteMemoryBuilder::default();
        for p in 0..pages {
            b.add(PagePrints {
                host: host.into(),
                url: format!("https://{host}/{p}"),
                page: 1000 + p,
                // 7 and 8 on every page, the page's own block on one.
                elements: vec![7, 8, 100 + p],
                leaves: LeafSet::new(vec![
                    Leaf {
                        tag: "a".into(),
                        text: "Home".into(),
                    },
                    Leaf {
                        tag: "p".into(),
                        text: format!("Page {p} of the site"),
                    },
                ]),
                layout: SampleLayout {
                    signature: vec![1, 2, 3 + p as u32],
                    rules: vec![("div.story".into(), 900_000), ("#nav".into(), 0)],
                },
            });
        }
        b
    }

    /// The records of `b` read back, merged: the builder again.
    fn read_all(records: &[HostRecord]) -> SiteMemoryBuilder {
        let mut back = SiteMemoryBuilder::default();
        for r in records {
            back.merge(read_record(&r.bytes).unwrap());
        }
        back
    }

    #[test]
    fn records_round_trip_in_name_order_with_one_digest() {
        let mut b = builder("b.example", 4);
        b.merge(builder("a.example", 2));
        let records: Vec<HostRecord> = host_records(&b).collect();
        let names: Vec<&str> = records.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["a.example", "b.example"]);
        assert_eq!(records[1].pages, 4);
        assert_eq!(record_header(&records[1].bytes), Ok(("b.example", 4)));
        let back = read_all(&records);
        assert_eq!(back, b);
        assert_eq!(host_records(&back).collect::<Vec<_>>(), records);
        let all = SampleNeeds::ALL;
        assert_eq!(digest(&back, all), digest(&b, all));
        assert_ne!(digest(&back, all), digest(&builder("b.example", 4), all));
        // A builder that kept only what a method reads has that method's digest.
        for needs in [
            SampleNeeds::of("reverse"),
            SampleNeeds::of("template"),
            SampleNeeds::of("cluster"),
        ] {
            let mut kept = b.clone();
            kept.keep_only(needs);
            assert_eq!(digest(&kept, needs), digest(&b, needs));
            if needs != all {
                assert_ne!(digest(&kept, all), digest(&b, all));
            }
        }
        assert_ne!(
            digest(&b, SampleNeeds::of("template")),
            digest(&b, SampleNeeds::of("cluster"))
        );
        assert_eq!(
            back.finish(3).context(Some("b.example")).pages_holding(7),
            4
        );
    }

    #[test]
    fn records_merge_like_builders() {
        // Two shards of one host: each alone has too few pages, together they have enough.
        let mut left = SiteMemoryBuilder::default();
        let mut right = SiteMemoryBuilder::default();
        let all = builder("a.example", 4);
        for p in 0..4u64 {
            let one = builder("a.example", 4);
            let acc = &one.hosts["a.example"];
            let sample = acc.samples[&(1000 + p)].clone();
            let prints = PagePrints {
                host: "a.example".into(),
                url: sample.url,
                page: 1000 + p,
                elements: sample.elements,
                leaves: sample.leaves,
                layout: sample.layout,
            };
            if p % 2 == 0 { &mut left } else { &mut right }.add(prints);
        }
        let mut merged = read_all(&host_records(&left).collect::<Vec<_>>());
        merged.merge(read_all(&host_records(&right).collect::<Vec<_>>()));
        assert_eq!(merged, all);
        let memory = merged.finish(3);
        let site = memory.context(Some("a.example"));
        assert_eq!(site.pages_holding(7), 4);
        assert_eq!(site.pages_holding(100), 0);
    }

    #[test]
    fn blocks_index_and_footer_round_trip() {
        let mut b = SiteMemoryBuilder::default();
        for h in 0..40 {
            b.merge(builder(&format!("host{h:02}.example"), 30));
        }
        let mut blocks = BlockWriter::default();
        let mut packed: Vec<(String, Vec<u8>)> = Vec::new();
        for r in host_records(&b) {
            packed.extend(blocks.push(&r.name, &r.bytes));
        }
        packed.extend(blocks.finish());
        assert!(packed.len() >= 3, "{} blocks", packed.len());
        // Stand-in for compression: blocks stored as they are.
        let mut file = MAGIC.to_vec();
        let mut index = Index::default();
        let mut names = Vec::new();
        for (first, block) in &packed {
            assert!(block.len() <= BLOCK_BYTES || block_records(block).count() == 1);
            index.push(first.clone(), file.len() as u64, block.len() as u64);
            file.extend_from_slice(block);
            for record in block_records(block) {
                let name = record_header(record.unwrap())
                    .map(|h| h.0)
                    .unwrap()
                    .to_string();
                check_order(names.last().map(String::as_str), &name).unwrap();
                names.push(name);
            }
        }
        assert_eq!(names.len(), 40);
        let index_bytes = index.to_bytes();
        let footer = Footer {
            index_offset: file.len() as u64,
            index_length: index_bytes.len() as u64,
            hosts: 40,
            pages: 1200,
            digests: [1, 2, 3, digest(&b, SampleNeeds::ALL)],
            kept: SampleNeeds::of("template"),
            min_host_pages: 3,
        };
        file.extend_from_slice(&index_bytes);
        file.extend_from_slice(&footer.to_bytes());
        let n = file.len() as u64;
        let read = Footer::read(&file[..8], &file[file.len() - FOOTER_BYTES..], n).unwrap();
        assert_eq!(read, footer);
        let at = read.index_offset as usize;
        let back = Index::from_bytes(&file[at..at + read.index_length as usize], n).unwrap();
        assert_eq!(back, index);
        // Every host is found in the block the index names; a name before the first host, or
        // between two, is in no record of its block.
        for name in &names {
            let entry = back.block_for(name).unwrap();
            let block = &file[entry.offset as usize..(entry.offset + entry.length) as usize];
            assert!(
                block_records(block)
                    .any(|r| record_header(r.unwrap()).map(|h| h.0) == Ok(name.as_str()))
            );
        }
        assert!(back.block_for("a.example").is_none());
        let entry = back.block_for("host05.example.org").unwrap();
        let block = &file[entry.offset as usize..(entry.offset + entry.length) as usize];
        assert!(
            block_records(block)
                .all(|r| record_header(r.unwrap()).map(|h| h.0) != Ok("host05.example.org"))
        );
    }

    #[test]
    fn any_damage_is_an_error_never_a_panic() {
        let record = host_records(&builder("a.example", 5)).next().unwrap().bytes;
        for cut in 0..record.len() {
            assert!(read_record(&record[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = record.clone();
        longer.push(0);
        assert_eq!(
            read_record(&longer),
            Err(StoreError::TrailingBytes("host record"))
        );
        let mut flipped = record.clone();
        for i in 0..flipped.len() {
            flipped[i] ^= 0xff;
            let _ = read_record(&flipped);
            let _ = record_header(&flipped);
            let _ = block_records(&flipped).count();
            let _ = Index::from_bytes(&flipped, u64::MAX);
            let _ = Digests::default().add(&flipped);
            flipped[i] ^= 0xff;
        }
        // A block whose record claims more bytes than there are.
        let mut block = (u64::MAX).to_le_bytes().to_vec();
        block.extend_from_slice(&record);
        let mut records = block_records(&block);
        assert_eq!(records.next(), Some(Err(StoreError::Truncated("block"))));
        assert_eq!(records.next(), None);
        // Index entries must tile the file in order.
        let mut index = Index::default();
        index.push("b".into(), 8, 10);
        index.push("a".into(), 18, 10);
        assert_eq!(
            Index::from_bytes(&index.to_bytes(), 100),
            Err(StoreError::Unsorted)
        );
        assert!(Index::from_bytes(&index.to_bytes(), 20).is_err());
        // Headers.
        assert_eq!(check_magic(b"PNG"), Err(StoreError::NotAStore));
        assert_eq!(
            check_magic(b"OWSITES4xxxx"),
            Err(StoreError::OtherVersion(b'4'))
        );
        assert!(
            StoreError::OtherVersion(b'4')
                .to_string()
                .contains("OWSITES4 is not the one this outward reads (OWSITES5)")
        );
        let footer = Footer {
            index_offset: 8,
            index_length: 8,
            hosts: 0,
            pages: 0,
            digests: [0; 4],
            kept: SampleNeeds::ALL,
            min_host_pages: 0,
        }
        .to_bytes();
        let n = (FOOTER_BYTES + 16) as u64;
        assert_eq!(Footer::read(MAGIC, &footer, n).unwrap().min_host_pages, 0);
        // What a store keeps is two bits: any other bit of the low word is damage.
        let mut odd = footer;
        odd[64] = 4;
        assert!(Footer::read(MAGIC, &odd, n).is_err());
        assert!(Footer::read(MAGIC, &footer, n + 1).is_err());
        assert!(Footer::read(MAGIC, &footer[1..], n - 1).is_err());
        assert!(Footer::read(b"OWSITES4", &footer, n).is_err());
    }

    /// Found by the `site_store` fuzz target: a store naming one host twice, its counts near
    /// `u32::MAX`, overflowed the merge's addition.
    #[test]
    fn counts_near_the_limit_saturate() {
        let mut b = builder("a.example", 3);
        b.hosts.get_mut("a.example").unwrap().untracked = u32::MAX - 1;
        b.hosts
            .get_mut("a.example")
            .unwrap()
            .counts
            .insert(7, u32::MAX);
        let record = host_records(&b).next().unwrap().bytes;
        // The same host twice (two stores, or a damaged one).
        let mut merged = read_record(&record).unwrap();
        merged.merge(read_record(&record).unwrap());
        let host = &merged.hosts["a.example"];
        // The sum saturates; the three sample pages both sides counted are then taken off
        // once each.
        assert_eq!(host.counts[&7], u32::MAX - 3);
        assert_eq!(host.pages(), u32::MAX);
    }

    #[test]
    fn hosts_are_bounded() {
        let mut b = SiteMemoryBuilder::default();
        let pages = MAX_STORED_PAGES as u64 + 10;
        for p in 0..pages {
            b.add(PagePrints {
                host: "big.example".into(),
                url: String::new(),
                page: p,
                elements: vec![1, 2 + p],
                leaves: LeafSet::default(),
                layout: SampleLayout::default(),
            });
        }
        let record = host_records(&b).next().unwrap();
        assert_eq!(record.pages, pages);
        let back = read_record(&record.bytes).unwrap();
        let host = &back.hosts["big.example"];
        assert_eq!(host.pages.len(), MAX_STORED_PAGES);
        assert_eq!(host.pages() as u64, pages);
        assert_eq!(host.counts.len(), MAX_STORED_PRINTS);
        // The block on every page survives the cut.
        assert_eq!(host.counts[&1], pages as u32);
    }
}
