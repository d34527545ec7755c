//! The extraction methods, one file each, and the registry that finds them by name:
//! `reverse-stage` (the default: the product method `reverse` with its learned stage,
//! [`stage`]), `reverse` (the rules alone), `paper` (seed paper 002 as published; the papers are named in
//! `docs/methods.md`),
//! `layout` (seed 000 as published: needs site memory), `template` (seed 001's template
//! library, needs site memory), `cluster` (seed 003's cluster rules, better with site memory)
//! and `fulltext` (all visible text, the baseline).
//!
//! Invariants: names are unique and stable (they are written into every document and into
//! the config hash); [`REGISTRY`] lists the default method first.

pub mod cluster;
pub mod confidence;
pub mod fulltext;
pub mod layout;
pub mod linenet;
pub mod models;
pub mod paper;
pub mod reverse;
pub mod stage;
pub mod svm;
pub mod template;

pub use cluster::Cluster;
pub use fulltext::Fulltext;
pub use layout::Layout;
pub use linenet::LineNet;
pub use paper::Paper;
pub use reverse::Reverse;
pub use svm::Svm;
pub use template::Template;

use crate::{ExtractOptions, Extractor};

/// A method as the registry knows it.
pub struct MethodInfo {
    /// `--method NAME`.
    pub name: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    build: fn(&ExtractOptions) -> Box<dyn Extractor>,
}

impl MethodInfo {
    /// The method with `options`.
    pub fn build(&self, options: &ExtractOptions) -> Box<dyn Extractor> {
        (self.build)(options)
    }
}

/// Every method, the default first.
pub static REGISTRY: &[MethodInfo] = &[
    MethodInfo {
        name: "reverse-stage",
        summary: "the default: reverse, then a learned stage (gradient-boosted trees) prunes the blocks of its content root it calls boilerplate (--model PATH or the shipped model)",
        build: |options| Box::new(Reverse::with_stage(options)),
    },
    MethodInfo {
        name: "reverse",
        summary: "reverse-order partial parse around the main text (after the paper of `paper`), its start and root chosen by evidence, without the learned stage; --without GUARD turns off one of its rules",
        build: |options| Box::new(Reverse::new(options)),
    },
    MethodInfo {
        name: "paper",
        summary: "the paper Parsing DOM Tree Reversely and Extracting Web Main Page Information (Zhang, Song, Gong) as published: from the longest text, parse outward while the tree stays similar (reads --similarity)",
        build: |options| Box::new(Paper::new(options)),
    },
    MethodInfo {
        name: "layout",
        summary: "the paper on content extraction by layout similarity (Yang, Li, Geng) as published: drop blocks identical on a same-site reference page (with --site-memory or --sites), then link blocks",
        build: |_| Box::new(Layout),
    },
    MethodInfo {
        name: "template",
        summary: "the paper on web page cleaning by template and SVM (Yan, Wang) as published: drop texts near-equal on 3 of 10 same-site pages (with --site-memory or --sites), then the block SVM of svm",
        build: |options| Box::new(Template::new(options)),
    },
    MethodInfo {
        name: "cluster",
        summary: "the paper on main-text extraction by web-page clustering as published: per cluster of same-template pages (by tag paths), the block rule with the highest summed score (with --site-memory or --sites)",
        build: |_| Box::new(Cluster),
    },
    MethodInfo {
        name: "fulltext",
        summary: "all visible text of the page (the baseline)",
        build: |_| Box::new(Fulltext),
    },
    MethodInfo {
        name: "svm",
        summary: "the block SVM of the template-and-SVM paper (Yan, Wang) alone: R1..R5 link and text shares of body/section/div blocks; --model PATH or the shipped model)",
        build: |options| Box::new(Svm::new(options)),
    },
    MethodInfo {
        name: "linenet",
        summary: "the line network of the machine-learning main-text paper (An, Wang, Xu) as published: length, markup, density and title relevance of each line and its neighbours, jieba for Chinese; --model PATH or the shipped model)",
        build: |options| Box::new(LineNet::new(options)),
    },
];

/// The default method's name.
pub const DEFAULT: &str = "reverse-stage";

/// The methods that read `reverse`'s guards ([`ExtractOptions::guards`]).
pub const GUARDED: [&str; 2] = ["reverse", "reverse-stage"];

/// The methods that read [`ExtractOptions::favor`].
pub const FAVORED: [&str; 1] = ["reverse-stage"];

/// The registry entry called `name`.
pub fn find(name: &str) -> Option<&'static MethodInfo> {
    REGISTRY.iter().find(|m| m.name == name)
}

/// The method called `name`, with `options`.
pub fn build(name: &str, options: &ExtractOptions) -> Result<Box<dyn Extractor>, UnknownMethod> {
    find(name)
        .map(|m| m.build(options))
        .ok_or_else(|| UnknownMethod(name.to_string()))
}

/// A method name the registry does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownMethod(pub String);

impl std::fmt::Display for UnknownMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = REGISTRY.iter().map(|m| m.name).collect();
        write!(
            f,
            "unknown method {:?} (methods: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownMethod {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_build_their_method() {
        assert_eq!(REGISTRY[0].name, DEFAULT);
        for info in REGISTRY {
            let method = info.build(&ExtractOptions::default());
            assert_eq!(method.name(), info.name);
            assert_eq!(REGISTRY.iter().filter(|m| m.name == info.name).count(), 1);
        }
        let err = build("magic", &ExtractOptions::default()).err().unwrap();
        assert_eq!(
            err.to_string(),
            "unknown method \"magic\" (methods: reverse-stage, reverse, paper, layout, template, cluster, fulltext, svm, linenet)"
        );
    }

    #[test]
    fn options_key_holds_only_what_the_method_reads() {
        let a = ExtractOptions::default();
        let b = ExtractOptions {
            similarity_threshold: 0.5,
            ..ExtractOptions::default()
        };
        for name in [
            "reverse",
            "reverse-stage",
            "layout",
            "template",
            "cluster",
            "fulltext",
            "svm",
            "linenet",
        ] {
            let key = |o| build(name, o).unwrap().options_key();
            assert_eq!(key(&a), key(&b), "{name} does not read the similarity");
        }
        let key = |o| build("paper", o).unwrap().options_key();
        assert_ne!(key(&a), key(&b));
        // Only reverse and reverse-stage read the guards, and all on is the shipped key.
        let without = ExtractOptions {
            guards: reverse::Guards::ALL_ON.without(reverse::Guard::Title),
            ..ExtractOptions::default()
        };
        for name in ["reverse", "reverse-stage"] {
            let key = |o| build(name, o).unwrap().options_key();
            assert_ne!(key(&a), key(&without), "{name} reads its guards");
            assert!(key(&without).ends_with("without=title"), "{name}");
        }
        assert_eq!(build("reverse", &a).unwrap().options_key(), "");
        for name in [
            "paper", "layout", "template", "cluster", "fulltext", "svm", "linenet",
        ] {
            let key = |o| build(name, o).unwrap().options_key();
            assert_eq!(key(&a), key(&without), "{name} does not read the guards");
        }
        // Only reverse-stage reads --favor (FAVORED), and balanced is the shipped key.
        let precision = ExtractOptions {
            favor: crate::Favor::Precision,
            ..ExtractOptions::default()
        };
        for info in REGISTRY {
            let key = |o| info.build(o).options_key();
            assert_eq!(
                key(&a) != key(&precision),
                FAVORED.contains(&info.name),
                "{}",
                info.name
            );
        }
    }
}
