//! Measures the parts of a run outside extraction (issue #38, item 4): the inflate of
//! `.warc.gz` inputs and the zstd of Dolma shards, each against the options the registries
//! hold, on real files.
//!
//! `cargo run --release --example rest_of_run -- MODE FILE`:
//! - `inflate FILE.warc.gz`: every decoder below over the file's gzip members, best of 5
//!   rounds each, with MB/s of decoded bytes;
//! - `inflate-DECODER FILE.warc.gz`: one round of one decoder inside `measured`, to be
//!   counted by `valgrind --tool=callgrind --toggle-collect='*measured*'` (the member split
//!   before it is not counted). DECODER: `libdeflate` (outward's reader: `MemberGzipReader`,
//!   whole members), `zlib-rs-stream` (flate2's `MultiGzDecoder` over zlib-rs in 128 KiB
//!   reads, as fastwarc streams), `zlib-rs-whole` (zlib-rs, one call per member into a buffer
//!   of the trailer's size), `miniz-whole` (miniz_oxide, the same), `zune-whole`
//!   (zune-inflate, the same);
//! - `zstd FILE.jsonl.zst` (a Dolma shard): the shard's lines compressed in frames of 1,000
//!   documents as `dolma` writes them, at each level and setting below, best of 3, with the
//!   ratio and MB/s of JSON;
//! - `zstd-SETTING FILE.jsonl.zst`: one compression of the lines inside `measured`, for
//!   callgrind. SETTING: a level (`1`..`9`, or `-1` to `-5`, zstd's fast levels), or `3-wlog20`,
//!   `3-ldm`, `3-nocheck` (level 3 with a 1 MiB window, long-distance matching, no checksum).

use std::hint::black_box;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// A gzip member of the input: where its compressed bytes are, and its decoded length (the
/// trailer's ISIZE).
struct Member {
    start: usize,
    end: usize,
    decoded: usize,
}

/// The members of a gzip file, found by streaming zlib-rs over it (not measured).
fn split_members(file: &[u8]) -> Vec<Member> {
    let mut members = Vec::new();
    let mut at = 0;
    let mut sink = vec![0u8; 1 << 20];
    while at + 18 <= file.len() {
        let mut inflate = zlib_rs::Inflate::new(true, 15 + 16);
        let mut total_out = 0usize;
        loop {
            let before_in = inflate.total_in();
            let before_out = inflate.total_out();
            let status = inflate
                .decompress(
                    &file[at + before_in as usize..],
                    &mut sink,
                    zlib_rs::InflateFlush::NoFlush,
                )
                .expect("a valid gzip file");
            total_out += (inflate.total_out() - before_out) as usize;
            if status == zlib_rs::Status::StreamEnd {
                break;
            }
        }
        let end = at + inflate.total_in() as usize;
        members.push(Member {
            start: at,
            end,
            decoded: total_out,
        });
        at = end;
    }
    members
}

/// The deflate stream of a gzip member: after its header (RFC 1952: fixed 10 bytes, then the
/// optional extra field, name, comment and header CRC), before its 8-byte trailer.
fn deflate_body(member: &[u8]) -> &[u8] {
    let flags = member[3];
    let mut at = 10;
    if flags & 4 != 0 {
        at += 2 + usize::from(u16::from_le_bytes([member[at], member[at + 1]]));
    }
    for flag in [8u8, 16] {
        if flags & flag != 0 {
            at += member[at..]
                .iter()
                .position(|&b| b == 0)
                .expect("terminated")
                + 1;
        }
    }
    if flags & 2 != 0 {
        at += 2;
    }
    &member[at..member.len() - 8]
}

/// One decoder's pass over every member; returns the decoded bytes.
fn decode(decoder: &str, shared: &Arc<[u8]>, members: &[Member], out: &mut Vec<u8>) -> usize {
    let file: &[u8] = shared;
    match decoder {
        "libdeflate" => {
            let mut reader = outward_warc::gzip::MemberGzipReader::new(io::Cursor::new(Arc::clone(shared)));
            io::copy(&mut reader, &mut io::sink()).expect("decodes") as usize
        }
        "zlib-rs-stream" => {
            let mut reader = flate2::read::MultiGzDecoder::new(file);
            let mut buf = vec![0u8; 128 << 10];
            let mut total = 0;
            loop {
                let n = reader.read(&mut buf).expect("decodes");
                if n == 0 {
                    break total;
                }
                total += n;
            }
        }
        "zlib-rs-whole" => members
            .iter()
            .map(|m| {
                out.resize(m.decoded, 0);
                let mut inflate = zlib_rs::Inflate::new(true, 15 + 16);
                let status = inflate
                    .decompress(&file[m.start..m.end], out, zlib_rs::InflateFlush::Finish)
                    .expect("decodes");
                assert_eq!(status, zlib_rs::Status::StreamEnd);
                inflate.total_out() as usize
            })
            .sum(),
        "miniz-whole" => members
            .iter()
            .map(|m| {
                out.resize(m.decoded, 0);
                let mut state = miniz_oxide::inflate::core::DecompressorOxide::new();
                let (status, _, produced) = miniz_oxide::inflate::core::decompress(
                    &mut state,
                    deflate_body(&file[m.start..m.end]),
                    out,
                    0,
                    miniz_oxide::inflate::core::inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF,
                );
                assert_eq!(status, miniz_oxide::inflate::TINFLStatus::Done);
                produced
            })
            .sum(),
        "zune-whole" => members
            .iter()
            .map(|m| {
                let options = zune_inflate::DeflateOptions::default()
                    .set_size_hint(m.decoded)
                    .set_limit(m.decoded.max(1));
                zune_inflate::DeflateDecoder::new_with_options(&file[m.start..m.end], options)
                    .decode_gzip()
                    .expect("decodes")
                    .len()
            })
            .sum(),
        other => panic!("unknown decoder {other}"),
    }
}

const DECODERS: [&str; 5] = [
    "libdeflate",
    "zlib-rs-stream",
    "zlib-rs-whole",
    "miniz-whole",
    "zune-whole",
];

/// What one zstd setting means for the encoder.
fn encoder<'a>(
    setting: &str,
    out: &'a mut Vec<u8>,
) -> zstd::stream::Encoder<'static, &'a mut Vec<u8>> {
    let (level, extra) = setting
        .split_once('-')
        .filter(|(l, _)| !l.is_empty())
        .unwrap_or((setting, ""));
    let level: i32 = level.parse().expect("a level");
    let mut encoder = zstd::stream::Encoder::new(out, level).expect("encoder");
    match extra {
        "" => {}
        "wlog20" => encoder.window_log(20).expect("window log"),
        "ldm" => encoder.long_distance_matching(true).expect("ldm"),
        "nocheck" => encoder.include_checksum(false).expect("checksum"),
        other => panic!("unknown zstd setting {other}"),
    }
    encoder
}

/// The shard's lines compressed in frames of 1,000 documents, as `dolma` writes them;
/// returns the compressed bytes.
fn compress(setting: &str, lines: &[&[u8]]) -> usize {
    let mut total = 0;
    let mut out = Vec::new();
    for frame in lines.chunks(1000) {
        out.clear();
        let mut encoder = encoder(setting, &mut out);
        for line in frame {
            io::Write::write_all(&mut encoder, line).expect("compresses");
        }
        encoder.finish().expect("compresses");
        total += out.len();
    }
    total
}

const ZSTD_SETTINGS: [&str; 13] = [
    "-5",
    "-3",
    "-1",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "9",
    "3-wlog20",
    "3-ldm",
    "3-nocheck",
];

/// The measured region for callgrind's `--toggle-collect='*measured*'`.
#[inline(never)]
fn measured<T>(work: impl FnOnce() -> T) -> T {
    black_box(work())
}

fn best_of(rounds: usize, mut work: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut result = 0;
    for _ in 0..rounds {
        let start = Instant::now();
        result = black_box(work());
        best = best.min(start.elapsed().as_secs_f64());
    }
    (best, result)
}

fn shard_lines(path: &Path) -> Vec<u8> {
    zstd::stream::decode_all(std::fs::File::open(path).expect("a shard")).expect("a zstd shard")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, path] = args.as_slice() else {
        eprintln!("usage: rest_of_run MODE FILE (see the example's docs)");
        std::process::exit(2);
    };
    let path = Path::new(path);
    if let Some(decoder) = mode.strip_prefix("inflate") {
        let file: Arc<[u8]> = std::fs::read(path).expect("a readable file").into();
        let members = split_members(&file);
        let decoded: usize = members.iter().map(|m| m.decoded).sum();
        let mut out = Vec::new();
        if let Some(decoder) = decoder.strip_prefix('-') {
            let n = measured(|| decode(decoder, &file, &members, &mut out));
            assert_eq!(n, decoded);
            println!("{decoder}: {n} bytes decoded");
            return;
        }
        println!(
            "{}: {} members, {:.1} MB compressed, {:.1} MB decoded",
            path.display(),
            members.len(),
            file.len() as f64 / 1e6,
            decoded as f64 / 1e6
        );
        for decoder in DECODERS {
            let (seconds, n) = best_of(5, || decode(decoder, &file, &members, &mut out));
            assert_eq!(n, decoded, "{decoder}");
            println!(
                "{decoder:>15}: {:7.1} ms, {:6.0} MB/s decoded",
                seconds * 1e3,
                decoded as f64 / 1e6 / seconds
            );
        }
    } else if let Some(setting) = mode.strip_prefix("zstd") {
        let json = shard_lines(path);
        let lines: Vec<&[u8]> = json.split_inclusive(|&b| b == b'\n').collect();
        if let Some(setting) = setting.strip_prefix('-') {
            let n = measured(|| compress(setting, &lines));
            println!(
                "zstd {setting}: {} -> {n} bytes, ratio {:.3}",
                json.len(),
                json.len() as f64 / n as f64
            );
            return;
        }
        println!(
            "{}: {} documents, {:.1} MB of JSON",
            path.display(),
            lines.len(),
            json.len() as f64 / 1e6
        );
        for setting in ZSTD_SETTINGS {
            let (seconds, n) = best_of(3, || compress(setting, &lines));
            println!(
                "zstd {setting:>9}: ratio {:.3}, {:7.1} ms, {:6.0} MB/s of JSON",
                json.len() as f64 / n as f64,
                seconds * 1e3,
                json.len() as f64 / 1e6 / seconds
            );
        }
    } else {
        eprintln!("unknown mode {mode}");
        std::process::exit(2);
    }
}
