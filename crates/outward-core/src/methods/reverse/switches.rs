//! `reverse`'s named rules and their switches. Each rule that corrects the plain climb
//! (seed → content root R → emit R) is a [`Guard`]: it has a name (`outward eval --without
//! NAME` turns it off to measure it), a file of its own in `guards/` where it has code of its
//! own (`listing`, `title`, `join`, `siblings`; the others are a condition at the one place
//! they act, named after the guard), its constants, its reason and a dated "measured"
//! block. The table of every guard with its measured effect per dataset is
//! `docs/methods.md`.
//!
//! Precedence, as [`super::Reverse`] applies them: the page's view (`noscript`, `hidden`),
//! which hints hold (`thread`, `weak-hints`, `peers`), then R: the listing guard first; the
//! title guard only when the listing guard did not fire; the join guard only on an article
//! (not a listing); the sibling guard last, on the built tree; then emission (`headline`,
//! `prune`, `teasers`, `notices`, `after-story`, and with `--favor precision` only
//! `comments`); last, with `--favor recall` only, `prose-outside` around the emitted text.
//!
//! Invariants: [`Guards::default`] is every guard on, and is the method as shipped: its
//! options key is empty, so a run with every guard on has the config hash (and the output
//! bytes) of the method before guards were switches. A guard turned off changes the options
//! key, so a resume redoes the work.

/// One of `reverse`'s rules that can be switched off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Guard {
    /// `noscript`: a page that shows almost no text, or less than one `<noscript>` element
    /// holds, is read with its `<noscript>` content (`Page::visible`).
    Noscript,
    /// `hidden`: a page whose text waits in one hidden element heavier than what it shows (an
    /// age gate, a preloader, a deferred block) is read with that element shown (the
    /// cleaner's second look, `html::clean`).
    Hidden,
    /// `weak-hints`: a weak boilerplate hint (share, menu, banner, …) on an element holding
    /// most of the page's good text is false (`hints::WEAK_HINT_MAX_SHARE`).
    WeakHints,
    /// `thread`: on a forum thread's URL, hints naming comments or replies are false
    /// (`url_kind`).
    Thread,
    /// `peers`: hinted elements of the same tag and class as one holding the seed are the
    /// seed's peers (a thread's other posts), and their hints are false (`hints::Peers`).
    Peers,
    /// `listing`: a page whose R holds almost no prose gives its densest list (`listing.rs`).
    Listing,
    /// `landing`: on a landing page's URL the listing guard takes more prose as no article,
    /// and a box beside the page's items gives the whole page (`listing.rs`, `url_kind`).
    Landing,
    /// `title`: the heading that names the page seeds a climb of its own when R does not
    /// hold it (`title.rs`).
    Title,
    /// `join`: an article in several regions becomes their common ancestor (`join.rs`).
    Join,
    /// `siblings`: a paragraph-level R grows to the run of its siblings with the most net
    /// good text (`siblings.rs`).
    Siblings,
    /// `prune`: boilerplate-hinted elements and link lists inside R are left out of the text
    /// (seed 000's rules 1-2; menus only, in a listing).
    Prune,
    /// `teasers`: a list of three or more cards of one shape, each a linked headline and a
    /// short summary (other stories), is left out of R's text with its label
    /// (`teasers.rs`).
    Teasers,
    /// `notices`: a short block that says the page needs JavaScript or a newer browser, or
    /// asks the reader to sign in, sign up or subscribe, is left out of R's text
    /// (`notices.rs`).
    Notices,
    /// `comments`, read only by `--favor precision`: a heading that opens the readers'
    /// comments ("Comments", "12 Responses to “…”", "Leave a Reply") after the seed ends
    /// R's text (`comments.rs`).
    Comments,
    /// `after-story`: a heading of what follows a story ("Related posts", "You may also
    /// like", "Share this", "About the author", "Tags") after the seed ends R's text
    /// (`after_story.rs`).
    AfterStory,
    /// `headline`: the page's `<h1>` above R is emitted first.
    Headline,
    /// `prose-outside`, read only by `--favor recall`: a page whose prose outside R weighs
    /// more than R's text gives R's text with that prose around it (`prose_outside.rs`).
    ProseOutside,
}

impl Guard {
    /// Every guard, in the order of the precedence above.
    pub const ALL: [Guard; 17] = [
        Guard::Noscript,
        Guard::Hidden,
        Guard::WeakHints,
        Guard::Thread,
        Guard::Peers,
        Guard::Listing,
        Guard::Landing,
        Guard::Title,
        Guard::Join,
        Guard::Siblings,
        Guard::Prune,
        Guard::Teasers,
        Guard::Notices,
        Guard::Comments,
        Guard::AfterStory,
        Guard::Headline,
        Guard::ProseOutside,
    ];

    /// The guard's name (`--without NAME`, the options key, `docs/methods.md`).
    pub fn name(self) -> &'static str {
        match self {
            Guard::Noscript => "noscript",
            Guard::Hidden => "hidden",
            Guard::WeakHints => "weak-hints",
            Guard::Thread => "thread",
            Guard::Peers => "peers",
            Guard::Listing => "listing",
            Guard::Landing => "landing",
            Guard::Title => "title",
            Guard::Join => "join",
            Guard::Siblings => "siblings",
            Guard::Prune => "prune",
            Guard::Teasers => "teasers",
            Guard::Notices => "notices",
            Guard::Comments => "comments",
            Guard::AfterStory => "after-story",
            Guard::Headline => "headline",
            Guard::ProseOutside => "prose-outside",
        }
    }

    /// The guard called `name`.
    pub fn from_name(name: &str) -> Option<Guard> {
        Guard::ALL.into_iter().find(|g| g.name() == name)
    }

    /// One line for `--help`: what the guard does.
    pub fn summary(self) -> &'static str {
        match self {
            Guard::Noscript => "read <noscript> content when the page shows less text than it",
            Guard::Hidden => "show the one hidden element that holds more text than the page shows",
            Guard::WeakHints => {
                "a weak boilerplate hint on an element holding most of the text is false"
            }
            Guard::Thread => "on a forum thread's URL, comments and replies are main text",
            Guard::Peers => {
                "elements of the seed's hinted kind (a thread's posts) are not boilerplate"
            }
            Guard::Listing => "a page without an article gives its densest list of items",
            Guard::Landing => "a landing page's URL (root, short section path) makes it a listing",
            Guard::Title => "the heading that names the page seeds a climb of its own",
            Guard::Join => "an article in several regions becomes their common ancestor",
            Guard::Siblings => "a paragraph-level root grows to its run of sibling paragraphs",
            Guard::Prune => {
                "boilerplate-hinted elements and link lists inside the root are left out"
            }
            Guard::Teasers => {
                "a list of 3+ cards of one shape (linked headline, short summary) is left out"
            }
            Guard::Notices => {
                "a short block asking for JavaScript, a newer browser, a sign-in or a sign-up is left out"
            }
            Guard::Comments => {
                "--favor precision: a heading opening the comments (\"Comments\", \"12 Responses\") ends the text"
            }
            Guard::AfterStory => {
                "a heading of what follows the story (\"Related posts\", \"Share this\", \"Tags\") ends the text"
            }
            Guard::Headline => "the page's <h1> above the root is kept",
            Guard::ProseOutside => {
                "--favor recall: prose outside the root, when it outweighs the root, is kept"
            }
        }
    }

    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

impl std::fmt::Display for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A guard name that `reverse` does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownGuard(pub String);

impl std::fmt::Display for UnknownGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = Guard::ALL.iter().map(|g| g.name()).collect();
        write!(
            f,
            "unknown guard {:?} (guards: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownGuard {}

/// Which of `reverse`'s guards are on. [`Guards::default`]: all of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Guards {
    /// Bit `g as u32` set: guard `g` is off.
    off: u32,
}

impl Guards {
    /// Every guard on: the method as shipped.
    pub const ALL_ON: Guards = Guards { off: 0 };

    /// These guards with `guard` turned off.
    pub fn without(self, guard: Guard) -> Guards {
        Guards {
            off: self.off | guard.bit(),
        }
    }

    /// Every guard on but those named in `names` (comma-separated lists allowed:
    /// `--without title,join`).
    pub fn without_names<S: AsRef<str>>(names: &[S]) -> Result<Guards, UnknownGuard> {
        let mut guards = Guards::ALL_ON;
        for list in names {
            for name in list.as_ref().split(',').map(str::trim) {
                if name.is_empty() {
                    continue;
                }
                let guard = Guard::from_name(name).ok_or_else(|| UnknownGuard(name.into()))?;
                guards = guards.without(guard);
            }
        }
        Ok(guards)
    }

    /// Whether `guard` is on.
    pub fn on(self, guard: Guard) -> bool {
        self.off & guard.bit() == 0
    }

    /// The guards turned off, in [`Guard::ALL`]'s order.
    pub fn off(self) -> impl Iterator<Item = Guard> {
        Guard::ALL.into_iter().filter(move |&g| !self.on(g))
    }

    /// What the options key holds of the guards: nothing when all are on (the shipped
    /// method's key), else `without=NAME,NAME`.
    pub fn options_key(self) -> String {
        if self.off == 0 {
            return String::new();
        }
        let names: Vec<&str> = self.off().map(Guard::name).collect();
        format!("without={}", names.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_read_back() {
        for g in Guard::ALL {
            assert_eq!(Guard::from_name(g.name()), Some(g));
            assert_eq!(
                Guard::ALL.iter().filter(|h| h.name() == g.name()).count(),
                1
            );
            assert!(!g.summary().is_empty());
        }
        assert_eq!(Guard::from_name("listings"), None);
    }

    #[test]
    fn the_default_is_every_guard_on_with_an_empty_key() {
        let all = Guards::default();
        assert!(Guard::ALL.iter().all(|&g| all.on(g)));
        assert_eq!(all.options_key(), "");
        assert_eq!(all, Guards::ALL_ON);
    }

    #[test]
    fn guards_turned_off_are_named_in_the_key_in_one_order() {
        let a = Guards::without_names(&["title,join"]).unwrap();
        let b = Guards::without_names(&["join", "title", "join"]).unwrap();
        assert_eq!(a, b);
        assert!(!a.on(Guard::Title) && !a.on(Guard::Join) && a.on(Guard::Listing));
        assert_eq!(a.options_key(), "without=title,join");
        let err = Guards::without_names(&["tilte"]).unwrap_err();
        assert!(err.to_string().contains("unknown guard \"tilte\""), "{err}");
        assert!(err.to_string().contains("listing"), "{err}");
    }
}
