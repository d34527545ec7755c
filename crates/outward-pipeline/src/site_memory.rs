//! Site memory in a run: where it comes from (`--site-memory`'s first read of the inputs,
//! or a store, see [`crate::config::SiteSource`]), pass 1 (every page fingerprinted on the
//! pool and gathered per host, spilling past the memory budget), `outward sites build`
//! ([`build_sites`]), and the checks that a store can serve the run.
//!
//! Invariants: pass 1 is order-free (the same memory for any thread count and input order);
//! a store that cannot serve the run (a final store below `--site-min-pages`, one without
//! what the method reads, an update of a final store) is refused before any page is read.

use crate::budget::Budget;
use crate::config::{RunConfig, SetupError, SiteSource};
use crate::events::{Event, Progress, Remembered, Reporter, SiteLookupsFailed, SiteMemoryLearned};
use crate::input::input_source;
use crate::sites::{Gathered, SpillingBuilder, StoreContexts, StoreReader};
use crate::stream::{Fanned, Stages, fan_out};
use outward_core::site::{PagePrints, SampleNeeds, page_prints_with};
use outward_core::{Page, SiteContexts};
use outward_warc::decode;
use outward_warc::reader::RawPage;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The site memory a run extracts with, and its digest (for the config hash).
pub(crate) struct RunSites {
    source: SitesHeld,
    pub(crate) digest: u64,
    /// What of the sample pages the memory keeps.
    pub(crate) kept: SampleNeeds,
}

enum SitesHeld {
    Memory(outward_core::SiteMemory),
    Store(Box<StoreContexts>),
}

impl RunSites {
    pub(crate) fn contexts(&self) -> &dyn SiteContexts {
        match &self.source {
            SitesHeld::Memory(m) => m,
            SitesHeld::Store(s) => s.as_ref(),
        }
    }

    pub(crate) fn report_failures(&self, reporter: &dyn Reporter) {
        if let SitesHeld::Store(store) = &self.source
            && let (failed @ 1.., Some(first_error)) = store.failures()
        {
            reporter.report(&Event::SiteLookupsFailed(SiteLookupsFailed {
                failed,
                first_error: &first_error,
            }));
        }
    }
}

/// The site memory a run extracts with (see [`SiteSource`]), reported as an event. A pass 1
/// that outgrows `config.site_memory_bytes` spills into `spill_near` and is read host by
/// host like a store.
pub(crate) fn site_memory(
    inputs: &[PathBuf],
    stages: &Stages,
    spill_near: &Path,
) -> Result<Option<RunSites>, SetupError> {
    let config = stages.config;
    let needs = SampleNeeds::of(&config.method);
    let store_contexts = |reader: StoreReader, dir| {
        StoreContexts::new(
            reader,
            needs,
            config.site_min_pages,
            config.site_memory_bytes,
            dir,
        )
    };
    let sites = match &config.sites {
        SiteSource::None => return Ok(None),
        SiteSource::Inputs => {
            let gathered = gather_sites(inputs, stages, needs, spill_near)
                .and_then(SpillingBuilder::finish)
                .map_err(|e| SetupError::SiteStore(spill_near.to_path_buf(), e))?;
            match gathered {
                Gathered::Memory(builder) => {
                    let digest = outward_core::site::store::digest(&builder, needs);
                    let (pages, hosts) = (builder.pages(), builder.hosts() as u64);
                    let memory = builder.finish(config.site_min_pages);
                    stages
                        .reporter
                        .report(&Event::SiteMemoryLearned(SiteMemoryLearned {
                            pages,
                            hosts,
                            remembered: Some(Remembered {
                                hosts: memory.hosts(),
                                host_pages: memory.pages(),
                                fingerprints: memory.fingerprints(),
                            }),
                        }));
                    return Ok(Some(RunSites {
                        source: SitesHeld::Memory(memory),
                        digest,
                        kept: needs,
                    }));
                }
                Gathered::Store { dir, path } => {
                    let reader = StoreReader::open(&path)
                        .map_err(|e| SetupError::SiteStore(path.clone(), e))?;
                    store_contexts(reader, Some(dir))
                }
            }
        }
        SiteSource::Store(path) => {
            let reader =
                StoreReader::open(path).map_err(|e| SetupError::SiteStore(path.clone(), e))?;
            let footer = reader.footer();
            let kept = footer.kept;
            // Refused before any page is read: the update would fail only at the end.
            if config.sites_update {
                crate::sites::takes_more_pages(footer.min_host_pages)
                    .map_err(|e| SetupError::SiteStore(path.clone(), e))?;
            }
            crate::sites::serves_min_pages(footer, config.site_min_pages)
                .map_err(|e| SetupError::SiteStore(path.clone(), e))?;
            if !kept.covers(needs) {
                let missing = if needs.leaves && !kept.leaves {
                    "leaf texts"
                } else {
                    "page layouts"
                };
                return Err(SetupError::SiteStore(
                    path.clone(),
                    io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!(
                            "the store keeps no {missing}, which --method {} reads: build it with `sites build --for {}` or without --for",
                            config.method, config.method
                        ),
                    ),
                ));
            }
            store_contexts(reader, None)
        }
    };
    let footer = *sites.footer();
    stages
        .reporter
        .report(&Event::SiteMemoryLearned(SiteMemoryLearned {
            pages: footer.pages,
            hosts: footer.hosts,
            remembered: None,
        }));
    Ok(Some(RunSites {
        source: SitesHeld::Store(Box::new(sites)),
        digest: footer.digest(needs),
        kept: footer.kept,
    }))
}

/// Pass 1 of site memory: every page of `inputs` decoded, analysed and fingerprinted on the
/// pool, gathered per host (see `outward_core::site`) in a builder that spills into
/// `spill_near` past `config.site_memory_bytes`. Order-free: the result is the same for any
/// thread count and any order of the inputs (pages are added in input order, so spills
/// fall at the same pages too). An input that cannot be read adds nothing here; pass 2
/// reports it.
fn gather_sites(
    inputs: &[PathBuf],
    stages: &Stages,
    needs: SampleNeeds,
    spill_near: &Path,
) -> io::Result<SpillingBuilder> {
    let decode_options = stages.config.decode_options();
    let work = |page: RawPage| -> Option<PagePrints> {
        let decoded = decode::decode_body(
            &page.http_headers,
            page.content_type.as_deref(),
            page.body,
            &decode_options,
        )
        .ok()?;
        std::panic::catch_unwind(|| {
            page_prints_with(&Page::new(&decoded.html, page.target_uri.as_deref()), needs)
        })
        .ok()
        .flatten()
    };
    let mut builder = SpillingBuilder::new(stages.config.site_memory_bytes, spill_near, needs);
    for input in inputs {
        let Ok(source) = input_source(input, &stages.config.remote) else {
            continue;
        };
        let _ = fan_out(
            &source,
            stages,
            &work,
            &AtomicBool::new(false),
            |item| match item {
                Fanned::Page {
                    out, payload_bytes, ..
                } => {
                    if let Some(prints) = out {
                        builder.add(prints);
                    }
                    stages.budget.release(payload_bytes);
                }
                Fanned::Skipped { .. } => stages.budget.release(0),
                Fanned::End { .. } => {}
            },
        );
    }
    Ok(builder)
}

/// `outward sites build`: the site memory of `inputs` (pass 1 alone), for a store keeping
/// `kept` of its sample pages; spills into `spill_near` past `config.site_memory_bytes`.
pub fn build_sites(
    inputs: &[PathBuf],
    config: &RunConfig,
    kept: SampleNeeds,
    spill_near: &Path,
    progress: &Progress,
    reporter: &dyn Reporter,
) -> Result<SpillingBuilder, SetupError> {
    let pool = config.worker_pool()?;
    let extractor = config.extractor().map_err(SetupError::Method)?;
    let budget = Budget::new(config.effective_window(), config.effective_inflight_bytes());
    let stages = Stages::new(config, &*extractor, &pool, &budget, progress, reporter);
    gather_sites(inputs, &stages, kept, spill_near)
        .map_err(|e| SetupError::SiteStore(spill_near.to_path_buf(), e))
}
