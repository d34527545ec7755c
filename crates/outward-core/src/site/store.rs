//! The site store's bytes: a [`SiteMemoryBuilder`] written so that another run, another
//! machine or a merge can continue it (`outward sites build|merge`, `outward run --sites`).
//! The CLI compresses and writes these bytes; nothing here does I/O.
//!
//! Layout (little-endian; hosts sorted by name, every list sorted, so the same builder is
//! always the same bytes):
//!
//! ```text
//! "OWSITES4"
//! u64 hosts
//! per host: u32 name length, name (UTF-8), u32 untracked pages,
//!           u32 page hashes, u32 fingerprints,
//!           page hashes × u64, fingerprints × (u64 hash, u32 pages holding it),
//!           u32 reference pages, each: u64 page hash, u32 URL length, URL,
//!                                      u32 fingerprints, fingerprints × u64,
//!                                      u32 leaves, each: u32 tag length, tag,
//!                                                        u32 text length, text,
//!                                      u32 signature slots, slots × u32,
//!                                      u32 rules, each: u32 length, rule, u32 score
//! ```
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
//! Invariants: [`from_bytes`] is total (any bytes give a builder or an error, never a panic,
//! never an allocation larger than the input justifies); `from_bytes(to_bytes(b))` equals `b`
//! when `b` is within the bounds.

use super::leaves::{Leaf, LeafSet};
use super::{HostAccumulator, PageSample, SampleLayout, SiteMemoryBuilder};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

/// First bytes of every store.
pub const MAGIC: &[u8; 8] = b"OWSITES4";
/// What every store format starts with; the last byte is its version.
const MAGIC_STEM: &[u8; 7] = b"OWSITES";
/// Page hashes kept per host.
pub const MAX_STORED_PAGES: usize = 1 << 16;
/// Fingerprints kept per host.
pub const MAX_STORED_PRINTS: usize = 1 << 16;

/// Why bytes are not a site store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    NotAStore,
    /// A store of another format version (the byte after `OWSITES`).
    OtherVersion(u8),
    /// The bytes end inside the named part.
    Truncated(&'static str),
    BadHostName,
    /// Bytes after the last host.
    TrailingBytes,
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
            StoreError::TrailingBytes => write!(f, "site store has bytes after its last host"),
        }
    }
}

impl std::error::Error for StoreError {}

/// The store bytes of `builder` (bounded per host, see the module header).
pub fn to_bytes(builder: &SiteMemoryBuilder) -> Vec<u8> {
    let mut names: Vec<&String> = builder.hosts.keys().collect();
    names.sort();
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(names.len() as u64).to_le_bytes());
    for name in names {
        let host = &builder.hosts[name];
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
        out.extend_from_slice(&(name.len() as u32).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
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
            out.extend_from_slice(&(sample.url.len() as u32).to_le_bytes());
            out.extend_from_slice(sample.url.as_bytes());
            out.extend_from_slice(&(sample.elements.len() as u32).to_le_bytes());
            for h in &sample.elements {
                out.extend_from_slice(&h.to_le_bytes());
            }
            out.extend_from_slice(&(sample.leaves.len() as u32).to_le_bytes());
            for (tag, text) in sample.leaves.iter() {
                for part in [tag, text] {
                    out.extend_from_slice(&(part.len() as u32).to_le_bytes());
                    out.extend_from_slice(part.as_bytes());
                }
            }
            let layout = &sample.layout;
            out.extend_from_slice(&(layout.signature.len() as u32).to_le_bytes());
            for slot in &layout.signature {
                out.extend_from_slice(&slot.to_le_bytes());
            }
            out.extend_from_slice(&(layout.rules.len() as u32).to_le_bytes());
            for (rule, score) in &layout.rules {
                out.extend_from_slice(&(rule.len() as u32).to_le_bytes());
                out.extend_from_slice(rule.as_bytes());
                out.extend_from_slice(&score.to_le_bytes());
            }
        }
    }
    out
}

/// Reads store bytes back into a builder.
pub fn from_bytes(bytes: &[u8]) -> Result<SiteMemoryBuilder, StoreError> {
    let Some(rest) = bytes.strip_prefix(MAGIC) else {
        return Err(match bytes.strip_prefix(MAGIC_STEM) {
            Some([version, ..]) => StoreError::OtherVersion(*version),
            _ => StoreError::NotAStore,
        });
    };
    let mut r = Reader { rest };
    let hosts = r.u64("host count")?;
    let mut builder = SiteMemoryBuilder::default();
    for _ in 0..hosts {
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
            let url_len = r.u32("reference pages")? as usize;
            let url = String::from_utf8_lossy(r.take(url_len, "reference pages")?).into_owned();
            let n = r.u32("reference pages")? as usize;
            let elements = r
                .take(n.saturating_mul(8), "reference pages")?
                .chunks_exact(8)
                .map(le_u64)
                .collect();
            let n_leaves = r.u32("leaves")? as usize;
            let mut leaves = Vec::with_capacity(n_leaves.min(r.rest.len() / 8));
            for _ in 0..n_leaves {
                let tag_len = r.u32("leaves")? as usize;
                let tag = String::from_utf8_lossy(r.take(tag_len, "leaves")?).into_owned();
                let text_len = r.u32("leaves")? as usize;
                let text = String::from_utf8_lossy(r.take(text_len, "leaves")?).into_owned();
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
                let len = r.u32("layouts")? as usize;
                let rule = String::from_utf8_lossy(r.take(len, "layouts")?).into_owned();
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
        // A name twice (never written so) merges like two stores.
        let mut one = SiteMemoryBuilder::default();
        one.hosts.insert(name, acc);
        builder.merge(one);
    }
    if !r.rest.is_empty() {
        return Err(StoreError::TrailingBytes);
    }
    Ok(builder)
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

    #[test]
    fn round_trip_and_same_bytes() {
        let mut b = builder("a.example", 4);
        b.merge(builder("b.example", 2));
        let bytes = to_bytes(&b);
        let back = from_bytes(&bytes).unwrap();
        assert_eq!(back, b);
        assert_eq!(to_bytes(&back), bytes);
        assert_eq!(
            back.finish(3).digest(),
            from_bytes(&bytes).unwrap().finish(3).digest()
        );
    }

    #[test]
    fn stores_merge_like_builders() {
        // Two shards of one host: each alone has too few pages, together they have enough.
        let mut left = SiteMemoryBuilder::default();
        let mut right = SiteMemoryBuilder::default();
        let all = builder("a.example", 4);
        for (i, p) in [1000u64, 1001, 1002, 1003].iter().enumerate() {
            let prints = PagePrints {
                host: "a.example".into(),
                url: format!("https://a.example/{i}"),
                page: *p,
                elements: vec![7, 8, 100 + i as u64],
                leaves: LeafSet::new(vec![
                    Leaf {
                        tag: "a".into(),
                        text: "Home".into(),
                    },
                    Leaf {
                        tag: "p".into(),
                        text: format!("Page {i} of the site"),
                    },
                ]),
                layout: SampleLayout {
                    signature: vec![1, 2, 3 + i as u32],
                    rules: vec![("div.story".into(), 900_000), ("#nav".into(), 0)],
                },
            };
            if i % 2 == 0 { &mut left } else { &mut right }.add(prints);
        }
        let mut merged = from_bytes(&to_bytes(&left)).unwrap();
        merged.merge(from_bytes(&to_bytes(&right)).unwrap());
        assert_eq!(merged, all);
        let memory = merged.finish(3);
        let site = memory.context(Some("a.example"));
        assert_eq!(site.pages_holding(7), 4);
        assert_eq!(site.pages_holding(100), 0);
    }

    #[test]
    fn any_damage_is_an_error_never_a_panic() {
        let bytes = to_bytes(&builder("a.example", 5));
        for cut in 0..bytes.len() {
            assert!(from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(from_bytes(&longer), Err(StoreError::TrailingBytes));
        // Lengths that claim more than the bytes hold.
        let mut huge = bytes.clone();
        huge[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(from_bytes(&huge).is_err());
        let mut flipped = bytes;
        for i in 16..flipped.len() {
            flipped[i] ^= 0xff;
            let _ = from_bytes(&flipped);
            flipped[i] ^= 0xff;
        }
        assert_eq!(from_bytes(b"PNG"), Err(StoreError::NotAStore));
        // A store of the previous format says so.
        let mut old = bytes_of_version(b'2');
        assert_eq!(from_bytes(&old), Err(StoreError::OtherVersion(b'2')));
        assert!(
            from_bytes(&old)
                .unwrap_err()
                .to_string()
                .contains("OWSITES2 is not the one this outward reads (OWSITES4)")
        );
        old.truncate(7);
        assert_eq!(from_bytes(&old), Err(StoreError::NotAStore));
    }

    fn bytes_of_version(v: u8) -> Vec<u8> {
        let mut bytes = to_bytes(&builder("a.example", 3));
        bytes[7] = v;
        bytes
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
        let one = to_bytes(&b);
        // The same host twice in one store (never written so, but any bytes may come).
        let host_part = &one[16..];
        let mut twice = MAGIC.to_vec();
        twice.extend_from_slice(&2u64.to_le_bytes());
        twice.extend_from_slice(host_part);
        twice.extend_from_slice(host_part);
        let merged = from_bytes(&twice).unwrap();
        let host = &merged.hosts["a.example"];
        assert_eq!(host.counts[&7], u32::MAX);
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
        let back = from_bytes(&to_bytes(&b)).unwrap();
        let host = &back.hosts["big.example"];
        assert_eq!(host.pages.len(), MAX_STORED_PAGES);
        assert_eq!(host.pages() as u64, pages);
        assert_eq!(host.counts.len(), MAX_STORED_PRINTS);
        // The block on every page survives the cut.
        assert_eq!(host.counts[&1], pages as u32);
    }
}
