//! What a page's URL says of it, for `reverse`'s guards: a landing page (the site's root, a
//! section, a shop category: its items are its main text, see the `landing` guard) or a
//! forum thread (its replies are main text, whatever their markup calls them: the `thread`
//! guard).
//!
//! Invariants: pure functions of the URL string; linear in its length.

/// Path segments a landing page's URL has at most (`/`, `/shop/`, `/c/bike-helmets`).
const LANDING_MAX_SEGMENTS: usize = 2;
/// Words (split at `-` and `_`) a landing page's last path segment has fewer of: a slug of
/// four or more words names a document.
const LANDING_MAX_SLUG_WORDS: usize = 4;
/// Query parameters that name no document (campaign and click tracking).
const TRACKING_PARAMS: [&str; 5] = ["utm_", "srsltid", "gclid", "fbclid", "mc_"];

/// Whether `url` names a page of the site rather than a document on it: the site's root or
/// a short path of words without digits (a section, a category, a shop collection). A
/// document's URL carries an id (digits), a long slug, a deep path or a query that selects
/// it; tracking parameters select nothing.
pub(super) fn is_landing_url(url: &str) -> bool {
    let Some((path, query)) = path_and_query(url) else {
        return false;
    };
    let selects = query
        .split('&')
        .filter(|p| !p.is_empty())
        .any(|p| !TRACKING_PARAMS.iter().any(|t| p.starts_with(t)));
    let segments = || path.split('/').filter(|s| !s.is_empty());
    !selects
        && segments().count() <= LANDING_MAX_SEGMENTS
        && !segments().any(|s| s.bytes().any(|b| b.is_ascii_digit()))
        && slug_stem(path).split(['-', '_']).count() < LANDING_MAX_SLUG_WORDS
}

/// A URL's path (from the first `/` after the host; empty without one) and its query, the
/// fragment cut; `None` for a URL without a scheme.
fn path_and_query(url: &str) -> Option<(&str, &str)> {
    let (_, rest) = url.split_once("://")?;
    let rest = rest.split_once('#').map_or(rest, |(r, _)| r);
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    Some((rest.find('/').map_or("", |i| &rest[i..]), query))
}

/// A path's last segment without its extension: the document's slug
/// (`/2012/8/9/open-thread.html` → `open-thread`).
fn slug_stem(path: &str) -> &str {
    let last = path.split('/').rfind(|s| !s.is_empty()).unwrap_or_default();
    last.rsplit_once('.').map_or(last, |(stem, _)| stem)
}

/// Parts of the URLs of forum threads, as the common forum software writes them
/// (XenForo and vBulletin `/threads/`, `showthread.php`; phpBB `viewtopic.php`; Invision,
/// bbPress and NodeBB `/topic/`; Discourse `/t/`; Flarum `/d/`; Vanilla `/discussion/`;
/// Reddit `/comments/`), and a forum named anywhere: `/forum…/`, a `forum.` host, a forum
/// site's name (`warriorforum.com`), a board's path (`/travel-forum/`). Matched lowercased.
const THREAD_URL_PARTS: [&str; 9] = [
    "forum",
    "/thread",
    "showthread",
    "viewtopic",
    "/topic",
    "/t/",
    "/d/",
    "/discussion",
    "/comments/",
];

/// A blog's or a news site's discussion page ends its slug with the word: SB Nation's
/// `…/panthers-training-camp-aug-9th-open-thread`, a "game thread" (not `threads`, as in
/// news of the app, and not a word inside the slug, as a shop's `sewing-thread-black`).
/// `lower` is a lowercased URL.
pub(super) fn names_a_thread(lower: &str) -> bool {
    path_and_query(lower).is_some_and(|(path, _)| {
        slug_stem(path)
            .rsplit(|c: char| !c.is_ascii_alphanumeric())
            .next()
            == Some("thread")
    })
}

/// What a page's URL says of it: a landing page (see `is_landing_url`), or a forum thread
/// (a forum's URL, see `THREAD_URL_PARTS`, that names a document: a forum's index or a board
/// is a landing page, a listing). On a thread the replies are the page's text, whatever their
/// markup calls them.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct UrlKind {
    pub(super) landing: bool,
    pub(super) thread: bool,
}

impl UrlKind {
    pub(super) fn of(url: &str) -> UrlKind {
        let landing = is_landing_url(url);
        let thread = !landing && {
            let lower = url.to_ascii_lowercase();
            THREAD_URL_PARTS.iter().any(|part| lower.contains(part)) || names_a_thread(&lower)
        };
        UrlKind { landing, thread }
    }
}
