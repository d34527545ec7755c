//! Site store files (the layout of `outward_core::site::store`, blocks and index
//! zstd-compressed) and the three ways a run uses them with bounded memory:
//!
//! - [`StoreWriter`] writes host records in name order, block by block, under a temporary
//!   name renamed when complete (a killed `sites build` leaves the old store whole);
//! - [`StoreReader`] keeps only the index (one host name per block) and reads the one block a
//!   host can be in; [`StoreContexts`] gives methods their [`SiteContext`] from it through a
//!   cache bounded in bytes, so `run --sites` holds what its pages' hosts need, not the store;
//! - [`SpillingBuilder`] gathers pages into a builder and, when it outgrows its budget,
//!   writes it out as a sorted run and starts again; [`merge_into`] then streams all runs and
//!   stores into one in name order (an external merge sort: `sites build`, `sites merge`,
//!   `--sites-update`, and `--site-memory` over more hosts than fit).
//!
//! A store keeps what a method reads of the sample pages (`sites build --for METHOD`, in its
//! footer); a run whose method reads more refuses it, a merge keeps what all inputs keep.
//! A final store (`--drop-hosts-under N`) keeps only what runs whose `--site-min-pages` is
//! at least N read: no host of fewer than N pages (most of a crawl's store bytes), no block
//! held by fewer than N pages, no page hashes (their number stays). It is never merged or
//! updated: what it left out would be missing from the sums.
//!
//! Invariants: reading never panics on a damaged file (an error naming the part); the same
//! records always give the same file bytes (zstd level, block size and layout fixed); a
//! host's context is the same whether its memory came from a builder in memory, a store, or
//! runs spilled and merged. (As with merged shards, a page two runs both saw counts once
//! when either kept it as a sample, which every page of a host of at most 32 pages is; a
//! page of a larger host outside the samples counts once per run, capped at the host's
//! distinct pages.)

use outward_core::SiteMemoryBuilder;
use outward_core::site::store::{
    self, BlockEntry, BlockWriter, Digests, FOOTER_BYTES, Footer, HostRecord, Index, MAGIC,
};
use outward_core::site::{PagePrints, SampleNeeds, SiteContext, SiteContexts};
use outward_output::atomic::AtomicFile;
use outward_output::lock::{HeldLock, acquire, lock_path};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Takes the lock of the store at `path` (`.NAME.lock` beside it) for `what`: each writer of
/// a store holds it from before it reads the store it replaces (`--sites-update`, `sites
/// merge` into one of its inputs) until the new file is in place, so two writers never lose
/// each other's pages. A writer that has to wait says whom it waits for through `reporter`.
pub fn lock_store(
    path: &Path,
    what: &str,
    reporter: &dyn crate::events::Reporter,
) -> io::Result<HeldLock> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "store".to_string());
    let lock = lock_path(store_dir(path), &name);
    acquire(&lock, what, &mut |holder| {
        reporter.report(&crate::events::Event::WaitingForLock(
            crate::events::WaitingForLock {
                what: path,
                lock: &lock,
                holder,
            },
        ))
    })
}

/// zstd level of store blocks. A nightly `--sites-update` rewrites the whole store, so
/// writing speed counts: level 3 makes stores 3-5% larger than level 9 (dev sets, 64 KiB
/// blocks: 30.6 MB against 29.1 MB; `--for reverse` 12.9 against 12.6) for a third of
/// level 9's compression instructions.
const STORE_ZSTD_LEVEL: i32 = 3;
/// A block or index decompressing to more than this is refused (bounded memory).
const MAX_PART_BYTES: u64 = 1 << 30;
/// Memory a run or a build gives site memory unless told otherwise: the builder spills past
/// it, the lookup cache evicts past it.
pub const DEFAULT_SITE_MEMORY_BYTES: usize = 1 << 30;

/// `--site-memory-mib` (and Python's `site_memory_mib`) in bytes.
pub fn mib_bytes(mib: u64) -> usize {
    usize::try_from(mib.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
}

fn invalid(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e.to_string())
}

/// What a written store holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreSummary {
    /// Size of the file.
    pub bytes: u64,
    pub hosts: u64,
    /// Distinct pages over all hosts.
    pub pages: u64,
    /// The records' digests (see `store::Digests`).
    pub digests: [u64; 4],
    /// What of the sample pages the store keeps.
    pub kept: SampleNeeds,
    /// Hosts of fewer distinct pages were left out (0: every host is kept).
    pub min_host_pages: u32,
}

/// The `min_host_pages` of a store that keeps every host (not a final store).
pub const EVERY_HOST: u32 = 0;

/// The cut of a store that leaves out hosts of fewer than `min_host_pages` pages, when it
/// leaves any out (a final store); `None` for a store that keeps every host (0 or 1).
pub fn final_cut(min_host_pages: u32) -> Option<u32> {
    (min_host_pages > 1).then_some(min_host_pages)
}

/// What a summary says of a final store's cut.
pub fn describe_cut(cut: u32) -> String {
    format!("final: hosts of fewer than {cut} pages left out")
}

/// Writes a store, one host record at a time, in ascending name order.
pub struct StoreWriter {
    file: AtomicFile,
    /// Blocks and index carry zstd's checksum: a damaged block is an error, not other hosts.
    compressor: zstd::bulk::Compressor<'static>,
    blocks: BlockWriter,
    index: Index,
    hosts: u64,
    pages: u64,
    digests: Digests,
    last: Option<String>,
    kept: SampleNeeds,
    min_host_pages: u32,
}

impl StoreWriter {
    /// Starts the store at `path` (under a temporary name until [`finish`](Self::finish)),
    /// whose records keep `kept` of their sample pages (the caller's records must), leaving
    /// out hosts of fewer than `min_host_pages` distinct pages ([`EVERY_HOST`]: none).
    pub fn create(path: &Path, kept: SampleNeeds, min_host_pages: u32) -> io::Result<StoreWriter> {
        let dir = store_dir(path);
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "store path names no file"))?
            .to_string_lossy()
            .into_owned();
        let mut compressor = zstd::bulk::Compressor::new(STORE_ZSTD_LEVEL)?;
        compressor.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
        let mut file = AtomicFile::create(dir, &name)?;
        file.write_all(MAGIC)?;
        Ok(StoreWriter {
            file,
            compressor,
            blocks: BlockWriter::default(),
            index: Index::default(),
            hosts: 0,
            pages: 0,
            digests: Digests::default(),
            last: None,
            kept,
            min_host_pages,
        })
    }

    /// Adds a host; its name must come after the previous one's. A final store leaves out
    /// a host of too few pages, and keeps of the others what its runs read
    /// (`SiteMemoryBuilder::keep_final`).
    pub fn push(&mut self, record: &HostRecord) -> io::Result<()> {
        store::check_order(self.last.as_deref(), &record.name).map_err(invalid)?;
        self.last = Some(record.name.clone());
        if let Some(cut) = final_cut(self.min_host_pages) {
            if record.pages < u64::from(cut) {
                return Ok(());
            }
            let mut host = store::read_record(&record.bytes).map_err(invalid)?;
            host.keep_final(cut);
            return match store::host_records(&host).next() {
                Some(kept) => self.add(&kept),
                None => Ok(()),
            };
        }
        self.add(record)
    }

    fn add(&mut self, record: &HostRecord) -> io::Result<()> {
        self.hosts += 1;
        self.pages = self.pages.saturating_add(record.pages);
        self.digests.add(&record.bytes).map_err(invalid)?;
        if let Some((first, block)) = self.blocks.push(&record.name, &record.bytes) {
            self.write_block(first, &block)?;
        }
        Ok(())
    }

    fn write_block(&mut self, first: String, block: &[u8]) -> io::Result<()> {
        let compressed = self.compressor.compress(block)?;
        self.index
            .push(first, self.file.bytes(), compressed.len() as u64);
        self.file.write_all(&compressed)
    }

    /// Writes the last block, the index and the footer, and renames the file into place.
    pub fn finish(mut self) -> io::Result<StoreSummary> {
        if let Some((first, block)) = std::mem::take(&mut self.blocks).finish() {
            self.write_block(first, &block)?;
        }
        let index = self.compressor.compress(&self.index.to_bytes())?;
        let footer = Footer {
            index_offset: self.file.bytes(),
            index_length: index.len() as u64,
            hosts: self.hosts,
            pages: self.pages,
            digests: self.digests.values(),
            kept: self.kept,
            min_host_pages: self.min_host_pages,
        };
        self.file.write_all(&index)?;
        self.file.write_all(&footer.to_bytes())?;
        let info = self.file.finish()?;
        Ok(StoreSummary {
            bytes: info.bytes,
            hosts: footer.hosts,
            pages: footer.pages,
            digests: footer.digests,
            kept: footer.kept,
            min_host_pages: footer.min_host_pages,
        })
    }
}

/// The directory the store file `path` is written in (spilled runs go there too).
pub fn store_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `builder`, whose samples keep `kept`, to `path` atomically, leaving out hosts of
/// fewer than `min_host_pages` pages.
pub fn write_store(
    path: &Path,
    builder: &SiteMemoryBuilder,
    kept: SampleNeeds,
    min_host_pages: u32,
) -> io::Result<StoreSummary> {
    let mut writer = StoreWriter::create(path, kept, min_host_pages)?;
    for record in store::host_records(builder) {
        writer.push(&record)?;
    }
    writer.finish()
}

/// Decompressed blocks a [`StoreReader`] keeps for lookups: hosts whose pages come
/// together (a crawl's per-site batches) are mostly in the block just read.
const RECENT_BLOCKS: usize = 4;
/// Blocks whose host names a [`StoreReader`] remembers (8 bytes a host): a lookup of a host
/// the store does not hold (most hosts, with a final store) is answered without
/// decompressing its block again. Past this many the names are forgotten and gathered anew.
const NAMED_BLOCKS: usize = 1 << 16;

/// A store opened for lookups and scans: its footer and index in memory, blocks read when
/// asked for (the last [`RECENT_BLOCKS`] kept for lookups, the host names of up to
/// [`NAMED_BLOCKS`] remembered).
pub struct StoreReader {
    path: PathBuf,
    file: Mutex<File>,
    footer: Footer,
    index: Index,
    /// Recently looked-up blocks by offset, the newest last.
    recent: Mutex<Vec<(u64, Arc<Vec<u8>>)>>,
    /// The hashes of the host names in each block looked up, sorted, by block offset.
    names: Mutex<HashMap<u64, Box<[u64]>>>,
    /// Blocks decompressed (lookups and scans).
    blocks_read: AtomicU64,
}

/// The hash a [`StoreReader`] remembers a host name by (a collision only costs a block
/// read).
fn name_hash(name: &str) -> u64 {
    outward_core::fnv1a(name.as_bytes())
}

impl StoreReader {
    pub fn open(path: &Path) -> io::Result<StoreReader> {
        let mut file = File::open(path)?;
        let size = file.metadata()?.len();
        let mut head = [0u8; 8];
        let head_len = read_up_to(&mut file, &mut head)?;
        let mut tail = vec![0u8; FOOTER_BYTES.min(size as usize)];
        file.seek(SeekFrom::End(-(tail.len() as i64)))?;
        file.read_exact(&mut tail)?;
        let footer = Footer::read(&head[..head_len], &tail, size).map_err(invalid)?;
        let index_bytes = read_part(&mut file, footer.index_offset, footer.index_length)
            .map_err(|e| invalid(format!("site store index: {e}")))?;
        let index = Index::from_bytes(&index_bytes, footer.index_offset).map_err(invalid)?;
        Ok(StoreReader {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            footer,
            index,
            recent: Mutex::new(Vec::new()),
            names: Mutex::new(HashMap::new()),
            blocks_read: AtomicU64::new(0),
        })
    }

    /// Blocks decompressed so far.
    pub fn blocks_read(&self) -> u64 {
        self.blocks_read.load(Ordering::Relaxed)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn footer(&self) -> &Footer {
        &self.footer
    }

    fn block(&self, entry: &BlockEntry) -> io::Result<Vec<u8>> {
        self.blocks_read.fetch_add(1, Ordering::Relaxed);
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        read_part(&mut file, entry.offset, entry.length)
    }

    /// Remembers the host names of `block` (at `offset`), unless a record of it is damaged
    /// (its lookups then read it again and report the damage).
    fn remember_names(&self, offset: u64, block: &[u8]) {
        let mut hashes = Vec::new();
        for record in store::block_records(block) {
            match record.and_then(store::record_header) {
                Ok((name, _)) => hashes.push(name_hash(name)),
                Err(_) => return,
            }
        }
        hashes.sort_unstable();
        let mut names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        if names.len() >= NAMED_BLOCKS {
            names.clear();
        }
        names.insert(offset, hashes.into_boxed_slice());
    }

    /// Whether the block at `offset` is known not to hold `host`.
    fn known_absent(&self, offset: u64, host: &str) -> bool {
        let names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        names
            .get(&offset)
            .is_some_and(|hashes| hashes.binary_search(&name_hash(host)).is_err())
    }

    /// `entry`'s block, from the recent ones when it is there.
    fn recent_block(&self, entry: &BlockEntry) -> io::Result<Arc<Vec<u8>>> {
        let cached = self
            .recent
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|(offset, _)| *offset == entry.offset)
            .map(|(_, block)| block.clone());
        if let Some(block) = cached {
            return Ok(block);
        }
        let block = Arc::new(self.block(entry)?);
        self.remember_names(entry.offset, &block);
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        if recent.len() >= RECENT_BLOCKS {
            recent.remove(0);
        }
        recent.push((entry.offset, block.clone()));
        Ok(block)
    }

    /// The record of `host`, if the store has it.
    pub fn find(&self, host: &str) -> io::Result<Option<Vec<u8>>> {
        let Some(entry) = self.index.block_for(host) else {
            return Ok(None);
        };
        if self.known_absent(entry.offset, host) {
            return Ok(None);
        }
        let block = self.recent_block(entry)?;
        for record in store::block_records(&block) {
            let record = record.map_err(invalid)?;
            let (name, _) = store::record_header(record).map_err(invalid)?;
            if name == host {
                return Ok(Some(record.to_vec()));
            }
            if name > host {
                break;
            }
        }
        Ok(None)
    }

    /// The store as an input of [`merge_into`].
    pub fn source(&self) -> RecordSource<'_> {
        RecordSource {
            records: Box::new(self.records()),
            kept: self.footer.kept,
            min_host_pages: self.footer.min_host_pages,
        }
    }

    /// Every record in name order, a block in memory at a time.
    pub fn records(&self) -> Records<'_> {
        Records {
            reader: self,
            next_block: 0,
            block: Vec::new(),
            at: 0,
            last: None,
        }
    }
}

/// Reads into `buf` until it is full or the file ends; returns the bytes read.
fn read_up_to(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// The compressed part at `offset` of `length` bytes, decompressed (at most
/// [`MAX_PART_BYTES`]).
fn read_part(file: &mut File, offset: u64, length: u64) -> io::Result<Vec<u8>> {
    file.seek(SeekFrom::Start(offset))?;
    let mut out = Vec::new();
    zstd::stream::read::Decoder::new(file.take(length))?
        .take(MAX_PART_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(invalid)?;
    if out.len() as u64 > MAX_PART_BYTES {
        return Err(invalid(
            "site store block larger than 1 GiB once decompressed",
        ));
    }
    Ok(out)
}

/// The records of a store in name order (see [`StoreReader::records`]).
pub struct Records<'a> {
    reader: &'a StoreReader,
    next_block: usize,
    block: Vec<u8>,
    at: usize,
    last: Option<String>,
}

impl Records<'_> {
    fn next_record(&mut self) -> io::Result<Option<HostRecord>> {
        while self.at >= self.block.len() {
            let Some(entry) = self.reader.index.blocks.get(self.next_block) else {
                return Ok(None);
            };
            self.block = self.reader.block(entry)?;
            self.next_block += 1;
            self.at = 0;
        }
        let record = match store::block_records(&self.block[self.at..]).next() {
            Some(r) => r.map_err(invalid)?,
            None => return Ok(None),
        };
        self.at += 8 + record.len();
        // The header is enough here: the writer a record goes to checks it whole.
        let (name, pages) = store::record_header(record).map_err(invalid)?;
        store::check_order(self.last.as_deref(), name).map_err(invalid)?;
        self.last = Some(name.to_string());
        Ok(Some(HostRecord {
            name: name.to_string(),
            pages,
            bytes: record.to_vec(),
        }))
    }
}

impl Iterator for Records<'_> {
    type Item = io::Result<HostRecord>;

    fn next(&mut self) -> Option<io::Result<HostRecord>> {
        let next = self.next_record();
        if next.is_err() {
            // A damaged block ends the scan.
            self.next_block = usize::MAX;
            self.block.clear();
        }
        next.transpose()
    }
}

/// Records in ascending name order, and what of the sample pages they keep: an input of
/// [`merge_into`] (a store's [`StoreReader::source`], or a builder's records).
pub struct RecordSource<'a> {
    pub records: Box<dyn Iterator<Item = io::Result<HostRecord>> + 'a>,
    pub kept: SampleNeeds,
    /// Hosts of fewer pages were left out of it ([`EVERY_HOST`]: none).
    pub min_host_pages: u32,
}

/// Whether a store of this `min_host_pages` can take more pages (a merge, or a run's
/// `--sites-update`): a final store cannot.
pub fn takes_more_pages(min_host_pages: u32) -> io::Result<()> {
    match final_cut(min_host_pages) {
        None => Ok(()),
        Some(cut) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "a final store (hosts of fewer than {cut} pages left out) cannot take more pages: its left-out hosts would miss their earlier pages; merge or update the stores it was made from"
            ),
        )),
    }
}

/// Whether a store serves a memory of `min_pages` pages per host: a final store left out
/// the hosts and blocks of fewer pages than its cut, which a smaller `min_pages` reads.
pub fn serves_min_pages(footer: &Footer, min_pages: u32) -> io::Result<()> {
    let cut = footer.min_host_pages;
    if min_pages >= cut {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "a final store leaves out hosts and blocks of fewer than {cut} pages, which --site-min-pages {min_pages} reads: use {cut} or more, or the store it was made from"
        ),
    ))
}

/// Streams the records of `inputs` (each in name order) into a store at `output`: a host in
/// one input passes as it is, a host in several is their records merged (the builders'
/// merge). The result keeps what every input keeps (a record keeping more loses the rest),
/// and leaves out hosts of fewer than `min_host_pages` pages. A final store among the
/// inputs is refused. Holds one block per store and one host at a time.
pub fn merge_into(
    inputs: Vec<RecordSource>,
    output: &Path,
    min_host_pages: u32,
) -> io::Result<StoreSummary> {
    for input in &inputs {
        takes_more_pages(input.min_host_pages)?;
    }
    let kept = inputs
        .iter()
        .fold(SampleNeeds::ALL, |k, input| k.both(input.kept));
    let input_kept: Vec<SampleNeeds> = inputs.iter().map(|input| input.kept).collect();
    let mut cursors: Vec<_> = inputs.into_iter().map(|input| input.records).collect();
    let mut heads: BinaryHeap<Reverse<(String, usize)>> = BinaryHeap::new();
    let mut pending: Vec<Option<HostRecord>> = vec![None; cursors.len()];
    for (i, cursor) in cursors.iter_mut().enumerate() {
        if let Some(record) = cursor.next().transpose()? {
            heads.push(Reverse((record.name.clone(), i)));
            pending[i] = Some(record);
        }
    }
    let mut writer = StoreWriter::create(output, kept, min_host_pages)?;
    while let Some(Reverse((name, first))) = heads.pop() {
        let mut same = vec![first];
        while heads.peek().is_some_and(|Reverse((n, _))| *n == name) {
            if let Some(Reverse((_, i))) = heads.pop() {
                same.push(i);
            }
        }
        let mut records: Vec<HostRecord> = Vec::with_capacity(same.len());
        let mut reduce = false;
        for &i in &same {
            reduce |= input_kept[i] != kept;
            records.extend(pending[i].take());
            if let Some(record) = cursors[i].next().transpose()? {
                heads.push(Reverse((record.name.clone(), i)));
                pending[i] = Some(record);
            }
        }
        if let ([only], false) = (&records[..], reduce) {
            writer.push(only)?;
            continue;
        }
        let mut merged = SiteMemoryBuilder::default();
        for record in &records {
            merged.merge(store::read_record(&record.bytes).map_err(invalid)?);
        }
        merged.keep_only(kept);
        for record in store::host_records(&merged) {
            writer.push(&record)?;
        }
    }
    writer.finish()
}

/// A directory of temporary stores beside an output, removed with everything in it when
/// dropped.
pub struct SpillDir(PathBuf);

/// What the name of every spill directory starts with; the writer's process id follows.
const SPILL_PREFIX: &str = ".outward-sites.spill-";

/// Removes the spill directories that killed processes left in `dir` (`SPILL_PREFIX` then a
/// process id no longer alive, read from `/proc`: where there is none, nothing is removed).
/// Returns how many were removed.
pub fn remove_stale_spill_dirs(dir: &Path) -> usize {
    outward_output::atomic::remove_left_by_dead_processes(
        dir,
        |name| {
            let rest = name.strip_prefix(SPILL_PREFIX)?;
            rest.split('-').next()?.parse().ok()
        },
        |path| std::fs::remove_dir_all(path),
    )
}

impl SpillDir {
    fn create(near: &Path) -> io::Result<SpillDir> {
        remove_stale_spill_dirs(near);
        // One per builder: a run's readers each gather their input's pages.
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = near.join(format!(
            "{SPILL_PREFIX}{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)?;
        Ok(SpillDir(dir))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for SpillDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A [`SiteMemoryBuilder`] that holds about `budget` bytes at most: past it, what it holds is
/// written to a sorted run in a spill directory and it starts again empty.
pub struct SpillingBuilder {
    builder: SiteMemoryBuilder,
    /// About the bytes `builder` holds (its own estimate).
    bytes: isize,
    budget: usize,
    /// What of the sample pages its pages carry (and its runs keep).
    kept: SampleNeeds,
    near: PathBuf,
    spill: Option<SpillDir>,
    runs: Vec<PathBuf>,
    pages_spilled: u64,
    /// The first spill that failed.
    error: Option<io::Error>,
}

/// What a [`SpillingBuilder`] gathered: all in memory, or (when it spilled) a store in a
/// spill directory that lives as long as this does.
pub enum Gathered {
    Memory(SiteMemoryBuilder),
    Store { dir: SpillDir, path: PathBuf },
}

impl SpillingBuilder {
    /// A builder of at most about `budget` bytes, spilling into a directory made in `near`,
    /// for pages fingerprinted with `kept` (`page_prints_with`).
    pub fn new(budget: usize, near: &Path, kept: SampleNeeds) -> SpillingBuilder {
        SpillingBuilder {
            builder: SiteMemoryBuilder::default(),
            bytes: 0,
            budget,
            kept,
            near: near.to_path_buf(),
            spill: None,
            runs: Vec::new(),
            pages_spilled: 0,
            error: None,
        }
    }

    /// Adds a page. A spill that fails is kept and returned by [`finish`](Self::finish) or
    /// [`write`](Self::write); pages after it are not gathered.
    pub fn add(&mut self, prints: PagePrints) {
        if self.error.is_some() {
            return;
        }
        self.bytes += self.builder.add_measured(prints);
        if self.bytes > self.budget as isize
            && let Err(e) = self.spill()
        {
            self.error = Some(e);
        }
    }

    /// Distinct pages gathered (per host; a page both in memory and in a run counts twice).
    pub fn pages(&self) -> u64 {
        self.pages_spilled + self.builder.pages()
    }

    /// Runs written so far.
    pub fn spills(&self) -> usize {
        self.runs.len()
    }

    fn spill(&mut self) -> io::Result<()> {
        let dir = match &self.spill {
            Some(dir) => dir,
            None => self.spill.insert(SpillDir::create(&self.near)?),
        };
        let path = dir.path().join(format!("run-{:05}.store", self.runs.len()));
        self.pages_spilled += self.builder.pages();
        write_store(
            &path,
            &std::mem::take(&mut self.builder),
            self.kept,
            EVERY_HOST,
        )?;
        self.runs.push(path);
        self.bytes = 0;
        Ok(())
    }

    /// Everything gathered: the builder when it never spilled, else the runs and what is
    /// still in memory merged into one store in the spill directory.
    pub fn finish(mut self) -> io::Result<Gathered> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let Some(dir) = self.spill.take() else {
            return Ok(Gathered::Memory(self.builder));
        };
        let path = dir.path().join("merged.store");
        self.write(&path, &[], EVERY_HOST)?;
        Ok(Gathered::Store { dir, path })
    }

    /// Writes everything gathered, merged with the stores `also`, to a store at `output`
    /// that leaves out hosts of fewer than `min_host_pages` pages. What is still in memory
    /// goes into the merge as it is, not through another run.
    pub fn write(
        &mut self,
        output: &Path,
        also: &[&StoreReader],
        min_host_pages: u32,
    ) -> io::Result<StoreSummary> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if self.runs.is_empty() && also.is_empty() {
            return write_store(output, &self.builder, self.kept, min_host_pages);
        }
        let runs = self
            .runs
            .iter()
            .map(|p| StoreReader::open(p))
            .collect::<io::Result<Vec<_>>>()?;
        let mut inputs: Vec<RecordSource> = runs
            .iter()
            .chain(also.iter().copied())
            .map(StoreReader::source)
            .collect();
        inputs.push(RecordSource {
            records: Box::new(store::host_records(&self.builder).map(Ok)),
            kept: self.kept,
            min_host_pages: EVERY_HOST,
        });
        merge_into(inputs, output, min_host_pages)
    }
}

/// Entries a [`StoreContexts`] cache holds, by host: the context and what it costs.
#[derive(Default)]
struct HostCache {
    entries: HashMap<String, (SiteContext, usize, u64)>,
    /// Last use → host, for eviction of the least recently used.
    by_use: BTreeMap<u64, String>,
    bytes: usize,
    clock: u64,
}

impl HostCache {
    fn get(&mut self, host: &str) -> Option<SiteContext> {
        self.clock += 1;
        let clock = self.clock;
        let (context, _, used) = self.entries.get_mut(host)?;
        let name = self.by_use.remove(used).unwrap_or_else(|| host.to_string());
        *used = clock;
        self.by_use.insert(clock, name);
        Some(context.clone())
    }

    fn insert(&mut self, host: &str, context: SiteContext, cost: usize, budget: usize) {
        if self.entries.contains_key(host) {
            return;
        }
        self.clock += 1;
        self.entries
            .insert(host.to_string(), (context, cost, self.clock));
        self.by_use.insert(self.clock, host.to_string());
        self.bytes += cost;
        while self.bytes > budget && self.entries.len() > 1 {
            let Some((_, oldest)) = self.by_use.pop_first() else {
                break;
            };
            if let Some((_, cost, _)) = self.entries.remove(&oldest) {
                self.bytes -= cost;
            }
        }
    }
}

/// Site contexts read host by host from a store, through a cache of about `budget` bytes.
pub struct StoreContexts {
    reader: StoreReader,
    needs: SampleNeeds,
    min_pages: u32,
    budget: usize,
    cache: Mutex<HostCache>,
    failed: AtomicU64,
    first_error: Mutex<Option<String>>,
    /// The spill directory the store lives in, when a run made it.
    _dir: Option<SpillDir>,
}

impl StoreContexts {
    /// Contexts from `reader` for a method that reads `needs`, hosts of at least `min_pages`.
    pub fn new(
        reader: StoreReader,
        needs: SampleNeeds,
        min_pages: u32,
        budget: usize,
        dir: Option<SpillDir>,
    ) -> StoreContexts {
        StoreContexts {
            reader,
            needs,
            min_pages,
            budget,
            cache: Mutex::new(HostCache::default()),
            failed: AtomicU64::new(0),
            first_error: Mutex::new(None),
            _dir: dir,
        }
    }

    pub fn footer(&self) -> &Footer {
        self.reader.footer()
    }

    /// Lookups that could not read the store (their pages were judged alone), and the first
    /// reason.
    pub fn failures(&self) -> (u64, Option<String>) {
        (
            self.failed.load(Ordering::Relaxed),
            self.first_error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone(),
        )
    }

    fn load(&self, host: &str) -> Result<(SiteContext, usize), String> {
        let Some(record) = self.reader.find(host).map_err(|e| e.to_string())? else {
            return Ok((SiteContext::default(), host.len() + 64));
        };
        let mut one = store::read_record(&record).map_err(|e| e.to_string())?;
        one.keep_only(self.needs);
        let context = one.finish(self.min_pages).context(Some(host));
        // Decoded maps and samples take about twice their record's bytes.
        Ok((context, 2 * record.len() + host.len() + 64))
    }
}

impl SiteContexts for StoreContexts {
    fn context(&self, host: Option<&str>) -> SiteContext {
        let Some(host) = host else {
            return SiteContext::default();
        };
        let cached = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(host);
        if let Some(context) = cached {
            return context;
        }
        match self.load(host) {
            Ok((context, cost)) => {
                self.cache.lock().unwrap_or_else(|e| e.into_inner()).insert(
                    host,
                    context.clone(),
                    cost,
                    self.budget,
                );
                context
            }
            Err(e) => {
                self.failed.fetch_add(1, Ordering::Relaxed);
                self.first_error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert_with(|| format!("{}: {e}", self.reader.path().display()));
                SiteContext::default()
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use outward_core::site::leaves::{Leaf, LeafSet};
    use outward_core::site::rules::SampleLayout;

    /// Page `p` of `host`: blocks 1 and 2 on every page, its own block, a leaf and a layout.
    pub(crate) fn page(host: &str, p: u64) -> PagePrints {
        PagePrints {
            host: host.into(),
            url: format!("https://{host}/{p}"),
            page: 1000 + p,
            elements: vec![1, 2, 100 + p],
            leaves: LeafSet::new(vec![Leaf {
                tag: "p".into(),
                text: format!("page {p} of {host}"),
            }]),
            layout: SampleLayout {
                signature: vec![1, 2, p as u32],
                rules: vec![("div.story".into(), 500_000)],
            },
        }
    }

    /// 300 hosts of 1 to 6 pages, and one page seen twice (the same page under two URLs).
    fn pages() -> Vec<PagePrints> {
        let mut all = Vec::new();
        for h in 0..300u64 {
            for p in 0..(1 + h % 6) {
                all.push(page(&format!("h{:03}.example", (h * 7919) % 300), p));
            }
        }
        let mut again = page("h001.example", 0);
        again.url = "https://h001.example/copy".into();
        all.push(again);
        all
    }

    pub(crate) fn builder_of(pages: &[PagePrints]) -> SiteMemoryBuilder {
        let mut b = SiteMemoryBuilder::default();
        for p in pages {
            b.add(p.clone());
        }
        b
    }

    /// A killed process's spill directory goes with the next spill beside it (or the next
    /// run in that directory); a live one's stays.
    #[test]
    fn stale_spill_directories_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        // Above Linux's largest process id (2^22): never alive.
        let dead = dir.path().join(format!("{SPILL_PREFIX}4194999-0"));
        let live = dir
            .path()
            .join(format!("{SPILL_PREFIX}{}-7", std::process::id()));
        let other = dir.path().join(".outward-sites.spillage");
        for d in [&dead, &live, &other] {
            std::fs::create_dir_all(d).unwrap();
            std::fs::write(d.join("run-00000.store"), b"x").unwrap();
        }
        let mut spilling = SpillingBuilder::new(8 << 10, dir.path(), SampleNeeds::ALL);
        for p in pages() {
            spilling.add(p);
        }
        assert!(spilling.spills() > 0);
        assert!(!dead.exists(), "the dead process's spill directory stays");
        assert!(live.exists() && other.exists());
        assert_eq!(remove_stale_spill_dirs(dir.path()), 0);
    }

    #[test]
    fn a_store_written_and_read_back_is_the_builder() {
        let dir = tempfile::tempdir().unwrap();
        let b = builder_of(&pages());
        let path = dir.path().join("sites.store");
        let summary = write_store(&path, &b, SampleNeeds::ALL, EVERY_HOST).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), summary.bytes);
        assert_eq!((summary.hosts, summary.pages), (300, b.pages()));
        assert_eq!(summary.digests[3], store::digest(&b, SampleNeeds::ALL));
        let reader = StoreReader::open(&path).unwrap();
        assert!(reader.index.blocks.len() > 1, "one block only");
        let mut back = SiteMemoryBuilder::default();
        for record in reader.records() {
            back.merge(store::read_record(&record.unwrap().bytes).unwrap());
        }
        assert_eq!(back, b);
        // Every host is found, a host it does not have is not.
        for h in 0..300 {
            let name = format!("h{h:03}.example");
            let record = reader.find(&name).unwrap().expect(&name);
            assert_eq!(
                store::record_header(&record).map(|h| h.0),
                Ok(name.as_str())
            );
        }
        for absent in ["a.example", "h150.example.org", "zzz"] {
            assert_eq!(reader.find(absent).unwrap(), None, "{absent}");
        }
        // Same builder, same bytes; no temporary file left behind.
        let again = dir.path().join("again.store");
        write_store(&again, &b, SampleNeeds::ALL, EVERY_HOST).unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(&again).unwrap()
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    /// Lookups of hosts a store lacks, in an order that visits its blocks in turn: each
    /// block is decompressed once, then its remembered names answer; hosts it holds are
    /// still found.
    #[test]
    fn a_host_the_store_lacks_costs_one_read_of_its_block() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sites.store");
        write_store(&path, &builder_of(&pages()), SampleNeeds::ALL, EVERY_HOST).unwrap();
        let reader = StoreReader::open(&path).unwrap();
        let blocks = reader.index.blocks.len() as u64;
        assert!(blocks > 2 * RECENT_BLOCKS as u64, "{blocks} blocks");
        for round in 0..3 {
            for i in 0..300 {
                // Each name sorts right after a host the store holds.
                let absent = format!("h{:03}.example.x", (i * 37) % 300);
                assert_eq!(reader.find(&absent).unwrap(), None, "{absent} {round}");
            }
        }
        assert!(
            reader.blocks_read() <= blocks,
            "{} reads of {blocks} blocks",
            reader.blocks_read()
        );
        for h in 0..300 {
            let name = format!("h{h:03}.example");
            assert!(reader.find(&name).unwrap().is_some(), "{name}");
        }
    }

    #[test]
    fn damage_is_an_error_never_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sites.store");
        write_store(&path, &builder_of(&pages()), SampleNeeds::ALL, EVERY_HOST).unwrap();
        let good = std::fs::read(&path).unwrap();
        let damaged = dir.path().join("damaged.store");
        // Cut anywhere: refused at open (the footer is the file's end).
        for cut in (0..good.len()).step_by(good.len() / 50) {
            std::fs::write(&damaged, &good[..cut]).unwrap();
            assert!(StoreReader::open(&damaged).is_err(), "cut at {cut}");
        }
        // A flipped byte inside a block: open succeeds (only the index is read), the scan
        // and the lookups in that block fail with an error.
        let mut flipped = good.clone();
        flipped[MAGIC.len() + 100] ^= 0x55;
        std::fs::write(&damaged, &flipped).unwrap();
        let reader = StoreReader::open(&damaged).unwrap();
        assert!(reader.records().any(|r| r.is_err()));
        let first = reader.index.blocks[0].first.clone();
        assert!(reader.find(&first).is_err());
        // The lookups of a run count the failure and judge the page alone.
        let contexts = StoreContexts::new(reader, SampleNeeds::ALL, 3, 1 << 20, None);
        assert!(contexts.context(Some(&first)).is_empty());
        let (failed, why) = contexts.failures();
        assert_eq!(failed, 1);
        assert!(why.unwrap().contains("damaged.store"));
        // Not a store, or an older one.
        std::fs::write(
            &damaged,
            b"OWSITES4 and more bytes than a footer has, surely......",
        )
        .unwrap();
        let e = StoreReader::open(&damaged).err().unwrap().to_string();
        assert!(e.contains("rebuild it"), "{e}");
        std::fs::write(&damaged, b"not zstd at all").unwrap();
        assert!(StoreReader::open(&damaged).is_err());
    }

    #[test]
    fn spilled_runs_merge_into_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let all = pages();
        let whole = dir.path().join("whole.store");
        write_store(&whole, &builder_of(&all), SampleNeeds::ALL, EVERY_HOST).unwrap();
        // A budget that makes it spill every few pages.
        let mut spilling = SpillingBuilder::new(8 << 10, dir.path(), SampleNeeds::ALL);
        for p in &all {
            spilling.add(p.clone());
        }
        assert!(spilling.spills() > 10, "{} spills", spilling.spills());
        let spilled = dir.path().join("spilled.store");
        spilling.write(&spilled, &[], EVERY_HOST).unwrap();
        assert_eq!(
            std::fs::read(&whole).unwrap(),
            std::fs::read(&spilled).unwrap()
        );
        // `finish` gives a store when it spilled, the builder when it did not.
        let mut small = SpillingBuilder::new(8 << 10, dir.path(), SampleNeeds::ALL);
        let mut big = SpillingBuilder::new(1 << 30, dir.path(), SampleNeeds::ALL);
        for p in &all {
            small.add(p.clone());
            big.add(p.clone());
        }
        match big.finish().unwrap() {
            Gathered::Memory(b) => assert_eq!(b, builder_of(&all)),
            Gathered::Store { .. } => panic!("spilled under a large budget"),
        }
        let Gathered::Store { dir: spill, path } = small.finish().unwrap() else {
            panic!("no spill under a small budget");
        };
        assert_eq!(
            std::fs::read(&whole).unwrap(),
            std::fs::read(&path).unwrap()
        );
        let spill_path = spill.path().to_path_buf();
        drop(spill);
        assert!(!spill_path.exists(), "spill directory left behind");
        // Only the two stores are left once the first builder goes too (each builder has
        // its own spill directory: a run's readers spill at once).
        drop(spilling);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn stores_of_disjoint_shards_merge_into_the_store_of_all() {
        let dir = tempfile::tempdir().unwrap();
        let all = pages();
        let whole = dir.path().join("whole.store");
        write_store(&whole, &builder_of(&all), SampleNeeds::ALL, EVERY_HOST).unwrap();
        let mut shard_paths = Vec::new();
        for k in 0..3 {
            let shard: Vec<PagePrints> = all.iter().skip(k).step_by(3).cloned().collect();
            let path = dir.path().join(format!("shard{k}.store"));
            write_store(&path, &builder_of(&shard), SampleNeeds::ALL, EVERY_HOST).unwrap();
            shard_paths.push(path);
        }
        let readers: Vec<StoreReader> = shard_paths
            .iter()
            .map(|p| StoreReader::open(p).unwrap())
            .collect();
        let merged = dir.path().join("merged.store");
        let inputs = readers.iter().map(StoreReader::source).collect();
        let summary = merge_into(inputs, &merged, EVERY_HOST).unwrap();
        assert_eq!(summary.hosts, 300);
        assert_eq!(
            std::fs::read(&whole).unwrap(),
            std::fs::read(&merged).unwrap()
        );
    }

    /// `--drop-hosts-under 3`: the hosts of one or two pages go, the others are served as
    /// from the whole store to runs that need 3 pages or more of a host; a final store is
    /// not merged again.
    #[test]
    fn a_final_store_leaves_out_small_hosts_and_serves_the_rest_alike() {
        let dir = tempfile::tempdir().unwrap();
        let b = builder_of(&pages());
        let whole = dir.path().join("whole.store");
        write_store(&whole, &b, SampleNeeds::ALL, EVERY_HOST).unwrap();
        let whole_reader = StoreReader::open(&whole).unwrap();
        let cut = dir.path().join("cut.store");
        let summary = merge_into(vec![whole_reader.source()], &cut, 3).unwrap();
        let kept = b.clone().finish(3);
        assert_eq!(summary.hosts, kept.hosts() as u64);
        assert_eq!(summary.pages, kept.pages());
        assert!(summary.hosts < 300 && summary.hosts > 100, "{summary:?}");
        assert_eq!(summary.min_host_pages, 3);
        assert!(summary.bytes < std::fs::metadata(&whole).unwrap().len());
        // Written straight from the builder, the same bytes.
        let direct = dir.path().join("direct.store");
        write_store(&direct, &b, SampleNeeds::ALL, 3).unwrap();
        assert_eq!(
            std::fs::read(&cut).unwrap(),
            std::fs::read(&direct).unwrap()
        );

        let cut_reader = StoreReader::open(&cut).unwrap();
        assert_eq!(cut_reader.footer().min_host_pages, 3);
        assert_eq!(whole_reader.footer().min_host_pages, EVERY_HOST);
        for min_pages in [3, 4] {
            let from = |path: &Path| {
                StoreContexts::new(
                    StoreReader::open(path).unwrap(),
                    SampleNeeds::ALL,
                    min_pages,
                    1 << 20,
                    None,
                )
            };
            let (all, cut) = (from(&whole), from(&cut));
            for h in 0..300u64 {
                let name = format!("h{h:03}.example");
                let (a, c) = (all.context(Some(&name)), cut.context(Some(&name)));
                assert_eq!(a.is_empty(), c.is_empty(), "{name}");
                assert_eq!(a.host_pages(), c.host_pages(), "{name}");
                for print in [1, 2, 100, 101, 102] {
                    assert_eq!(a.pages_holding(print), c.pages_holding(print), "{name}");
                }
                let url = format!("https://{name}/9");
                assert_eq!(
                    a.reference_for(&url, 0).map(|s| &s.url),
                    c.reference_for(&url, 0).map(|s| &s.url),
                    "{name}"
                );
            }
        }
        // Hosts of one or two pages are gone from it (and only those).
        let small = (0..300)
            .map(|h| format!("h{h:03}.example"))
            .filter(|n| cut_reader.find(n).unwrap().is_none())
            .count() as u64;
        assert_eq!(small, 300 - summary.hosts);

        // More pages cannot be added to it: a merge refuses it, beside a whole store too.
        let again = dir.path().join("again.store");
        for inputs in [
            vec![cut_reader.source()],
            vec![whole_reader.source(), cut_reader.source()],
        ] {
            let e = merge_into(inputs, &again, EVERY_HOST).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
            assert!(e.to_string().contains("final store"), "{e}");
        }
        assert!(!again.exists());
    }

    #[test]
    fn contexts_from_a_store_are_those_of_the_memory_and_the_cache_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let b = builder_of(&pages());
        let path = dir.path().join("sites.store");
        write_store(&path, &b, SampleNeeds::ALL, EVERY_HOST).unwrap();
        let memory = b.finish(3);
        // A cache far smaller than the store: it evicts, and answers stay the same.
        let contexts = StoreContexts::new(
            StoreReader::open(&path).unwrap(),
            SampleNeeds::ALL,
            3,
            4 << 10,
            None,
        );
        for round in 0..2 {
            for h in (0..300).rev() {
                let name = format!("h{h:03}.example");
                let from_store = contexts.context(Some(&name));
                let from_memory = memory.context(Some(&name));
                assert_eq!(
                    from_store.host_pages(),
                    from_memory.host_pages(),
                    "{name} {round}"
                );
                assert_eq!(from_store.pages_holding(1), from_memory.pages_holding(1));
                assert_eq!(from_store.is_empty(), from_memory.is_empty());
            }
        }
        {
            let cache = contexts.cache.lock().unwrap();
            assert!(cache.bytes <= 4 << 10, "{} bytes cached", cache.bytes);
            assert!(cache.entries.len() < 300);
            assert_eq!(cache.entries.len(), cache.by_use.len());
        }
        assert!(contexts.context(None).is_empty());
        assert!(contexts.context(Some("unknown.example")).is_empty());
        assert_eq!(contexts.failures().0, 0);
    }
}
