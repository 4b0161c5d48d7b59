//! Full text: each record's `tsvector`, built in the app from the same tokens the SQLite store
//! indexes (`knowhub_core::text::tokenize`), because PostgreSQL has no Chinese parser; and
//! ranking in SQL: BM25 (as SQLite's index), fast on common words.
//!
//! Ranking every record that shares any token with the query (`ts_rank_cd` over an OR query) is
//! what makes naive PostgreSQL full text slow: a query holding a common word matches most of the
//! table. So the query tokens are weighted by IDF, taken from the statistics ANALYZE keeps for the
//! `tsv` column (`pg_stats.most_common_elems`: lexemes in more than a small share of rows, with
//! their frequencies) and `pg_class.reltuples`, read from the catalog and kept for `STATS_TTL`
//! (they change only when ANALYZE runs).
//! Records are then *selected* only through the selective tokens (rarest first, until enough
//! records can match), and *ranked* by BM25 over all tokens (see [`rank`]). A
//! record that matches only very common tokens has a near-zero BM25 anyway; if the selective
//! tokens give fewer than `limit` results, the query is run again over every token held by at most
//! `TOO_COMMON` of the records (never over near-ubiquitous ones: that would scan most of the table).
//! Without statistics yet (a new, small table) every token weighs 1 and all are used.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use knowhub_core::{Result, SearchFilter};
use sqlx::{PgPool, Row};

use crate::db::{db_err, PgQuery, PgStore};
use crate::filter;
use crate::rows::scored;

/// Space-separated `'token':position` list, the `tsvector` input format (no parser involved, so
/// tokens such as `err_connection_refused` stay whole).
pub(crate) fn tsvector_text(tokens: &[String]) -> String {
    let mut out = String::with_capacity(tokens.len() * 8);
    let mut counts = std::collections::HashMap::<&str, usize>::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.is_empty() || t.len() > 2000 {
            continue;
        }
        // PostgreSQL keeps at most 256 positions per lexeme; positions stop at 16383.
        let c = counts.entry(t.as_str()).or_default();
        *c += 1;
        if *c > 255 {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&quote_lexeme(t));
        out.push_str(&format!(":{}", (i + 1).min(16383)));
    }
    out
}

pub(crate) fn quote_lexeme(t: &str) -> String {
    format!("'{}'", t.replace('\\', "\\\\").replace('\'', "''"))
}

/// A record's searchable text as `tsvector` input.
pub(crate) fn body(task: &str, resource: &str, result: &str) -> String {
    tsvector_text(&knowhub_core::text::tokenize(&knowhub_core::search_text(task, resource, result)))
}

impl PgStore {
    /// Records holding each token, counted up to `cap` (what bounded full-text search weighs
    /// rare tokens by); for tests.
    #[doc(hidden)]
    pub async fn fts_token_counts(&self, tokens: &[String], cap: i64) -> Result<Vec<f64>> {
        count_tokens(&self.pool, tokens, cap).await
    }
}

/// Tokens in more than this share of records only select candidates when too few would match.
const COMMON: f64 = 0.02;
/// Tokens in more than this share never select candidates (unless the query has nothing rarer).
const TOO_COMMON: f64 = 0.05;

/// Records the selecting tokens may bring to ranking (BM25 in SQL costs ~2 µs a record), unless
/// fewer than the search needs come back. At 100k records, ranking every record of every token
/// under `COMMON` (thousands) was most of a search's time.
const RANK_BUDGET: f64 = 1_000.0;

/// A scoped ranking intersects the words' index with the scope index only while the scopes hold
/// fewer than this many records per record the words match; past it each matching record's scope
/// is checked instead. The planner intersects whenever the scope index narrows the rows, but a
/// scope index entry costs about a twelfth of a record's visit (100k records, 2-core machine: a
/// 26,000-record scope's bitmap 1.5-2.4 ms; 144 matches of `org` + a team in 2.6 ms intersected,
/// 0.2-0.3 ms checked), so for the few hundred records a bounded query matches the intersection
/// costs more than it saves.
const SCOPE_INDEX_PER_MATCH: f64 = 8.0;

/// A token outside the catalog's most-common list is counted (exactly, up to this many records)
/// rather than given one shared estimate: its IDF, and the budget above, then hold.
const COUNT_CAP: i64 = 2_000;

/// Records from which the budget and the counts apply by default (`PgOptions`). Below this,
/// ranking every selective token's records costs less than the extra statements (ATEC, 20k
/// records: search p50 3.3 ms without them, 8.3 ms with them; 100k records: 8.3 ms without,
/// 2.6-3.6 ms with).
pub const BOUNDED_FROM: u64 = 50_000;

/// A query token with its weight.
#[derive(Debug, Clone)]
pub(crate) struct Term {
    pub lexeme: String,
    /// Its IDF over the whole table, and the number and share of records holding it: what
    /// choosing the selecting terms goes by, since a scan reads every record a word's index
    /// entries name, readable or not.
    pub idf: f64,
    pub df: f64,
    pub freq: f64,
    /// Its weight in the ranking: the IDF over the records the search may read (`counted`).
    pub weight: f64,
}

/// How long this process reuses the catalog's word statistics. Reading them costs about a
/// millisecond of server time and a 1,000-element array per read (twice per search: candidates,
/// then scores); they change only when ANALYZE runs, itself minutes apart at most.
const STATS_TTL: Duration = Duration::from_secs(10);

/// Records sampled for the mean document length.
const LENGTH_SAMPLE: f64 = 20_000.0;

/// How long a sampled mean document length is reused while the row count stays within
/// `LENGTH_DRIFT` of the count it was sampled at. The sample reads ~20,000 records (~17 ms at
/// 100k): taken with every `STATS_TTL` refresh, it fell on one search every 10 s, which on a
/// quiet hub is most of them. A corpus's mean length moves slowly.
const LENGTH_TTL: Duration = Duration::from_secs(300);
const LENGTH_DRIFT: f64 = 0.1;

/// How long exact token counts are reused while the row count is unchanged.
const COUNTS_TTL: Duration = Duration::from_secs(60);

/// The word statistics of `experiences.tsv`: row count and the most common lexemes' shares,
/// and the mean document length BM25 normalises by.
#[derive(Debug)]
pub(crate) struct Stats {
    n: f64,
    freq: HashMap<String, f64>,
    /// The rarest of the most common lexemes' shares: any other lexeme is rarer still.
    min_freq: f64,
    /// Mean distinct lexemes per record (1 when unknown).
    avgdl: f64,
}

impl Stats {
    fn new(n: f64, elems: Vec<String>, freqs: Vec<f64>, avgdl: f64) -> Self {
        let avgdl = if avgdl.is_finite() && avgdl > 0.0 { avgdl } else { 1.0 };
        if n < 1.0 || elems.is_empty() || freqs.len() < elems.len() {
            return Stats { n: 0.0, freq: HashMap::new(), min_freq: 0.0, avgdl };
        }
        // After the per-element frequencies come the minimum and maximum of them, then the null share.
        let min_freq = freqs[..elems.len()].iter().cloned().fold(f64::INFINITY, f64::min);
        Stats { n, freq: elems.into_iter().zip(freqs).collect(), min_freq, avgdl }
    }
}

/// A sampled mean document length: when, at which row count, and the mean.
#[derive(Debug, Clone, Copy)]
struct Length {
    at: Instant,
    n: f64,
    avgdl: f64,
}

/// The mean length to reuse for a table of `n` rows, if `prev` is recent and was sampled at
/// about that size. A table without a row estimate yet (`n` < 1: never analysed, usually new and
/// small) is sampled every time.
fn reuse_length(prev: Option<Length>, n: f64, now: Instant) -> Option<f64> {
    let p = prev?;
    let fresh = now.saturating_duration_since(p.at) < LENGTH_TTL;
    (n >= 1.0 && p.n >= 1.0 && fresh && (n - p.n).abs() <= LENGTH_DRIFT * p.n).then_some(p.avgdl)
}

/// Exact token counts and the row count and time they were counted from (see `counted`).
#[derive(Default)]
struct Counts {
    n: f64,
    since: Option<Instant>,
    of: HashMap<String, Counted>,
}

/// Records not held, by status and scope, with their total length: every corpus's size.
type Sizes = HashMap<(String, String), (f64, f64)>;

/// [`Sizes`], when counted, and whether a recount is under way.
#[derive(Default)]
struct SizesMemo {
    at: Option<(Instant, Arc<Sizes>)>,
    counting: bool,
}

/// One word's records, counted up to `COUNT_CAP`: in all, and those not held by status and scope.
#[derive(Default)]
struct Counted {
    total: f64,
    live: HashMap<(String, String), f64>,
}

impl Counted {
    /// The records of `corpus` (all of them for `None`) holding the word, and whether that is
    /// only a lower bound (the count stopped at the cap).
    fn within(&self, corpus: Option<Corpus<'_>>) -> (f64, bool) {
        let capped = self.total >= COUNT_CAP as f64;
        match corpus {
            Some(c) => (c.part(&self.live).sum(), capped),
            None => (self.total, capped),
        }
    }
}

/// The records a scoped search may read: its status and scopes, nothing held.
#[derive(Clone, Copy)]
pub(crate) struct Corpus<'a> {
    pub status: knowhub_core::Status,
    pub scopes: &'a [String],
}

impl<'a> Corpus<'a> {
    /// The corpus of a search with `filter`; `None` when it reads every scope.
    pub(crate) fn of(filter: &'a SearchFilter) -> Option<Self> {
        filter.scopes.as_deref().map(|scopes| Corpus { status: filter.status, scopes })
    }

    /// Its part of values kept by status and scope.
    fn part<'b, T>(self, by: &'b HashMap<(String, String), T>) -> impl Iterator<Item = &'b T> + use<'a, 'b, T> {
        let status = self.status.as_str();
        by.iter().filter(move |((st, sc), _)| st == status && self.scopes.contains(sc)).map(|(_, v)| v)
    }
}

/// [`Stats`] shared by one store's searches, refreshed when older than `STATS_TTL`.
pub(crate) struct StatsCache {
    /// Records from which full-text ranking is bounded (`BOUNDED_FROM` unless configured).
    bounded_from: f64,
    stats: Mutex<Option<(Instant, Arc<Stats>)>>,
    length: Mutex<Option<Length>>,
    /// Exact record counts of rare tokens, kept for `COUNTS_TTL` while the row count stands (a
    /// search asks for the same tokens twice: candidates, then scores, which must weigh them
    /// alike).
    counts: Mutex<Counts>,
    /// The corpora's sizes (see `counted`): counted once when first needed, then again in the
    /// background when older than `LENGTH_TTL` (a `GROUP BY` over the table: 60-76 ms at 100k
    /// records), the older ones serving meanwhile.
    sizes: Arc<Mutex<SizesMemo>>,
}

impl StatsCache {
    pub(crate) fn new(bounded_from: u64) -> Self {
        StatsCache {
            bounded_from: bounded_from as f64,
            stats: Mutex::default(),
            length: Mutex::default(),
            counts: Mutex::default(),
            sizes: Arc::default(),
        }
    }

    fn bounded(&self, stats: &Stats) -> bool {
        !stats.freq.is_empty() && stats.n >= self.bounded_from
    }

    async fn get(&self, pool: &PgPool) -> Result<Arc<Stats>> {
        if let Some((at, s)) = self.stats.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            if at.elapsed() < STATS_TTL {
                return Ok(s.clone());
            }
        }
        let row = sqlx::query(
            "SELECT c.reltuples::float8, s.most_common_elems::text::text[], s.most_common_elem_freqs::float8[] \
             FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'experiences' \
             AND s.attname = 'tsv' WHERE c.oid = 'experiences'::regclass",
        )
        .fetch_one(pool)
        .await
        .map_err(db_err)?;
        let n: f64 = row.try_get(0).map_err(db_err)?;
        let elems: Option<Vec<String>> = row.try_get(1).map_err(db_err)?;
        let freqs: Option<Vec<f64>> = row.try_get(2).map_err(db_err)?;
        let now = Instant::now();
        let prev = *self.length.lock().unwrap_or_else(|p| p.into_inner());
        let avgdl = match reuse_length(prev, n, now) {
            Some(avgdl) => avgdl,
            None => {
                // A sample of pages holding about LENGTH_SAMPLE records (all of a small or unanalysed table).
                let percent = if n > LENGTH_SAMPLE { (100.0 * LENGTH_SAMPLE / n).max(0.01) } else { 100.0 };
                let avgdl: Option<f64> =
                    sqlx::query_scalar("SELECT avg(length(tsv))::float8 FROM experiences TABLESAMPLE SYSTEM ($1)")
                        .bind(percent)
                        .fetch_one(pool)
                        .await
                        .map_err(db_err)?;
                let avgdl = avgdl.unwrap_or(1.0);
                *self.length.lock().unwrap_or_else(|p| p.into_inner()) = Some(Length { at: now, n, avgdl });
                avgdl
            }
        };
        let stats = Arc::new(Stats::new(n, elems.unwrap_or_default(), freqs.unwrap_or_default(), avgdl));
        *self.stats.lock().unwrap_or_else(|p| p.into_inner()) = Some((now, stats.clone()));
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if counts.n != n || counts.since.is_none_or(|t| now.saturating_duration_since(t) >= COUNTS_TTL) {
            *counts = Counts { n, since: Some(now), ..Counts::default() };
        }
        Ok(stats)
    }

    /// `terms` with exact counts for the tokens the statistics only estimate (one round trip
    /// for those not counted since the statistics were read), the mean length, and for a scoped
    /// search the number of records its scopes hold (`None` below the bounded size).
    ///
    /// With a `corpus` (a caller that reads only some scopes), the counts and the record count
    /// are those of the records it may read, so that records it cannot read weigh nothing in its
    /// ranking: thirty records of another team holding one query word would otherwise make that
    /// word common for it too. The mean length is the corpus's too. Only the words the catalog
    /// lists as most common keep its share of the whole table (applied to the corpus's size): it
    /// moves with ANALYZE, and only for a word that many records hold.
    async fn counted(
        &self,
        pool: &PgPool,
        stats: &Stats,
        mut terms: Vec<Term>,
        corpus: Option<Corpus<'_>>,
    ) -> Result<(Vec<Term>, f64, Option<f64>)> {
        if !self.bounded(stats) {
            return Ok((terms, stats.avgdl, None));
        }
        // A word is counted once for every corpus. The catalog's most common words keep its
        // estimate, scaled to the corpus (counting them reads up to `COUNT_CAP` records each:
        // counting them for scoped searches cost 1.5-2 ms a search at 100k records).
        let (missing, need_sizes): (Vec<String>, bool) = {
            let counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
            let missing = terms
                .iter()
                .filter(|t| !stats.freq.contains_key(&t.lexeme) && !counts.of.contains_key(&t.lexeme))
                .map(|t| t.lexeme.clone())
                .collect();
            (missing, corpus.is_some())
        };
        let sizes = if need_sizes { Some(self.sizes(pool).await?) } else { None };
        let got =
            if missing.is_empty() { Vec::new() } else { count_tokens_by_scope(pool, &missing, COUNT_CAP).await? };
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        counts.of.extend(missing.into_iter().zip(got));
        let (n, avgdl) = match (corpus, sizes.as_deref()) {
            (Some(c), Some(sizes)) => {
                let (n, len) = c.part(sizes).fold((0.0, 0.0), |(n, l), (a, b)| (n + a, l + b));
                (n, if n > 0.0 && len > 0.0 { len / n } else { stats.avgdl })
            }
            _ => (stats.n, stats.avgdl),
        };
        for t in &mut terms {
            // At the cap a count is a lower bound: keep the larger of it and the estimate.
            let at_least = |c: f64, capped: bool, est: f64| if capped { c.max(est) } else { c };
            if let Some(c) = counts.of.get(&t.lexeme) {
                let (total, capped) = c.within(None);
                *t = Term::new(&t.lexeme, at_least(total, capped, t.df), stats.n);
            }
            if corpus.is_some() {
                let (df, capped) = counts.of.get(&t.lexeme).map_or((t.freq * n, false), |c| c.within(corpus));
                // Sizes may be older than the counts: a word is never held by more than all.
                let df = at_least(df, capped, t.freq * n);
                t.weight = idf(df, n.max(df));
            }
        }
        Ok((terms, avgdl, corpus.is_some().then_some(n)))
    }

    /// The corpora's sizes: counted now the first time, else the last count, recounted in the
    /// background once it is older than `LENGTH_TTL` (a corpus's size and mean length move slowly).
    async fn sizes(&self, pool: &PgPool) -> Result<Arc<Sizes>> {
        let (last, recount) = {
            let mut memo = self.sizes.lock().unwrap_or_else(|p| p.into_inner());
            let last = memo.at.as_ref().map(|(at, sizes)| (at.elapsed() >= LENGTH_TTL, sizes.clone()));
            let recount = last.as_ref().is_some_and(|(old, _)| *old) && !memo.counting;
            memo.counting |= recount;
            (last.map(|(_, sizes)| sizes), recount)
        };
        let Some(last) = last else {
            let sizes = Arc::new(corpus_sizes(pool).await?);
            self.sizes.lock().unwrap_or_else(|p| p.into_inner()).at = Some((Instant::now(), sizes.clone()));
            return Ok(sizes);
        };
        if recount {
            let (pool, memo) = (pool.clone(), self.sizes.clone());
            tokio::spawn(async move {
                let fresh = corpus_sizes(&pool).await;
                let mut memo = memo.lock().unwrap_or_else(|p| p.into_inner());
                memo.counting = false;
                match fresh {
                    Ok(sizes) => memo.at = Some((Instant::now(), Arc::new(sizes))),
                    Err(e) => {
                        tracing::warn!(error = %e, "recounting the corpora's sizes failed; the last count serves")
                    }
                }
            });
        }
        Ok(last)
    }
}

/// Records not held, by status and scope, with their total length (one `GROUP BY`, reused with
/// the counts).
async fn corpus_sizes(pool: &PgPool) -> Result<Sizes> {
    let rows = sqlx::query(
        "SELECT status, scope, count(*)::float8, sum(length(tsv))::float8 FROM experiences WHERE held = 0 \
         GROUP BY status, scope",
    )
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    rows.iter()
        .map(|r| {
            let key = (r.try_get(0).map_err(db_err)?, r.try_get(1).map_err(db_err)?);
            Ok((key, (r.try_get(2).map_err(db_err)?, r.try_get::<Option<f64>, _>(3).map_err(db_err)?.unwrap_or(0.0))))
        })
        .collect()
}

/// Records holding each lexeme, counted up to `cap` each, by status and scope, in one
/// statement.
async fn count_tokens_by_scope(pool: &PgPool, lexemes: &[String], cap: i64) -> Result<Vec<Counted>> {
    let quoted: Vec<String> = lexemes.iter().map(|t| quote_lexeme(t)).collect();
    let rows = sqlx::query(
        "SELECT u.i, c.status, c.scope, c.live, count(*)::float8 \
         FROM unnest($1::text[]::tsquery[]) WITH ORDINALITY AS u(q, i) CROSS JOIN LATERAL \
         (SELECT e.status, e.scope, e.held = 0 AS live FROM experiences e WHERE e.tsv @@ u.q LIMIT $2) c \
         GROUP BY u.i, c.status, c.scope, c.live",
    )
    .bind(&quoted)
    .bind(cap)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    let mut out: Vec<Counted> = lexemes.iter().map(|_| Counted::default()).collect();
    for r in &rows {
        let i: i64 = r.try_get(0).map_err(db_err)?;
        let n: f64 = r.try_get(4).map_err(db_err)?;
        let Some(c) = usize::try_from(i - 1).ok().and_then(|i| out.get_mut(i)) else { continue };
        c.total += n;
        if r.try_get::<bool, _>(3).map_err(db_err)? {
            *c.live.entry((r.try_get(1).map_err(db_err)?, r.try_get(2).map_err(db_err)?)).or_default() += n;
        }
    }
    Ok(out)
}

/// Records holding each lexeme, counted up to `cap` each, in one statement.
pub(crate) async fn count_tokens(pool: &PgPool, lexemes: &[String], cap: i64) -> Result<Vec<f64>> {
    Ok(count_tokens_by_scope(pool, lexemes, cap).await?.into_iter().map(|c| c.total).collect())
}

/// IDF weights for `tokens` (deduplicated, in query order) from the planner's statistics.
fn terms(stats: &Stats, tokens: &[String]) -> Vec<Term> {
    let mut seen = std::collections::HashSet::new();
    let toks: Vec<&String> =
        tokens.iter().filter(|t| !t.is_empty() && t.len() <= 2000 && seen.insert(t.as_str())).collect();
    weigh(&toks, stats)
}

fn weigh(toks: &[&String], s: &Stats) -> Vec<Term> {
    if s.freq.is_empty() {
        return toks
            .iter()
            .map(|t| Term { lexeme: t.to_string(), idf: 1.0, df: 0.0, freq: 0.0, weight: 1.0 })
            .collect();
    }
    let n = s.n;
    toks.iter()
        .map(|t| {
            // Not among the most common: rarer than the rarest of them.
            let f = s.freq.get(t.as_str()).cloned().unwrap_or(s.min_freq / 2.0);
            Term::new(t, (f * n).max(0.0), n)
        })
        .collect()
}

impl Term {
    /// A token held by `df` of `n` records: BM25's IDF (as FTS5's, floored above zero).
    fn new(lexeme: &str, df: f64, n: f64) -> Self {
        let freq = if n > 0.0 { df / n } else { 0.0 };
        let idf = idf(df, n);
        Term { lexeme: lexeme.to_string(), idf, df, freq, weight: idf }
    }
}

/// BM25's IDF of a word `df` of `n` records hold (as FTS5's, floored above zero).
fn idf(df: f64, n: f64) -> f64 {
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// Which terms select candidates: the rarest token whatever its frequency, then, rarest first
/// and while the records they bring stay within `budget` (or `need`, if larger), the selective
/// ones (in under `COMMON` of the records) and common ones (up to `TOO_COMMON`) only while
/// fewer than `need` are expected. The rest still count in the ranking. `None`: all of them.
fn selecting(terms: &[Term], need: usize, budget: f64) -> Option<Vec<&Term>> {
    if terms.iter().all(|t| t.df == 0.0) {
        return None;
    }
    // idf of a token in exactly COMMON of n records: ln(1 + (n - df + 0.5) / (df + 0.5)), large n.
    let cut = (1.0 + (1.0 - COMMON) / COMMON).ln();
    let mut sorted: Vec<&Term> = terms.iter().collect();
    sorted.sort_by(|a, b| a.df.total_cmp(&b.df));
    let (mut picked, mut expected) = (Vec::new(), 0.0);
    for t in sorted {
        let fits = expected + t.df <= budget.max(need as f64);
        if picked.is_empty() || fits && (t.idf >= cut || (expected < need as f64 && t.freq <= TOO_COMMON)) {
            expected += t.df;
            picked.push(t);
        }
    }
    (picked.len() < terms.len()).then_some(picked)
}

fn or_query(terms: &[&Term]) -> String {
    terms.iter().map(|t| quote_lexeme(&t.lexeme)).collect::<Vec<_>>().join(" | ")
}

/// BM25's term-frequency saturation and length normalisation, as SQLite's index (FTS5's values).
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Query terms up to which the ranking is written out term by term (below); past it (a pasted
/// page of text: a 2,000-character query can hold ~2,000 tokens), one subquery over arrays,
/// since a select list holds at most 1,664 entries and a deep `+` chain exhausts the stack.
const INLINE_TERMS: usize = 256;

/// A record's BM25 for `n` query terms, as SQL: the select-list expression and the one-row
/// subquery it reads the terms from (joined as `t`). Parameters: `avgdl` names the one holding
/// the mean document length; from `$first` on, the terms as [`bind_terms`] binds them.
///
/// `Σ idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avgdl))`, written `(k1+1) · Σ idf · (1 − K/(tf+K))`
/// so that each term's frequency is computed once. A term's frequency is `ts_rank_cd` without
/// normalisation over ten (each occurrence of a single-lexeme query scores 0.1), taken only where
/// the term matches; the length is the record's count of distinct lexemes (`length(tsv)`: the
/// total is not stored). `ts_rank_cd` itself, with its logarithmic length normalisation and no
/// saturation, ranked records that repeat a word far too high: nDCG@10 0.202 on CoSQA against
/// 0.375 this way (SQLite: 0.391).
///
/// One inline term per query token rather than a per-record subquery over arrays: at 100k
/// records that subquery's machinery cost more than the ranking it did. The lexemes are cast to
/// `tsquery` once, in a subquery kept apart by `OFFSET 0`: folded into the select list, a
/// prepared statement's generic plan would parse them again for every record.
fn rank(avgdl: &str, first: usize, n: usize) -> (String, String) {
    let k = format!("({K1} * ({one_b} + {B} * length(e.tsv) / {avgdl}::float8))", one_b = 1.0 - B);
    let k1p = K1 + 1.0;
    if n > INLINE_TERMS {
        let expr = format!(
            "({k1p} * (SELECT sum(u.w * (1.0 - {k} / (10.0 * ts_rank_cd(e.tsv, u.q, 0) + {k}))) \
             FROM unnest(t.qs, t.ws) AS u(q, w) WHERE e.tsv @@ u.q))::float8"
        );
        let from = format!("(SELECT ${first}::text[]::tsquery[] AS qs, ${}::float8[] AS ws OFFSET 0) t", first + 1);
        return (expr, from);
    }
    let (mut sum, mut cols) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        let (q, w) = (first + 2 * i, first + 2 * i + 1);
        cols.push(format!("${q}::tsquery AS q{i}"));
        sum.push(format!(
            "CASE WHEN e.tsv @@ t.q{i} THEN ${w}::float8 * (1.0 - {k} / (10.0 * ts_rank_cd(e.tsv, t.q{i}, 0) + {k})) ELSE 0 END"
        ));
    }
    (format!("({k1p} * ({}))::float8", sum.join(" + ")), format!("(SELECT {} OFFSET 0) t", cols.join(", ")))
}

/// Binds [`rank`]'s term parameters, in order: a `(lexeme, idf)` pair per term, or (past
/// `INLINE_TERMS`) the lexemes' array and the weights' array.
fn bind_terms<'q>(mut q: PgQuery<'q>, terms: &[Term]) -> PgQuery<'q> {
    if terms.len() > INLINE_TERMS {
        let lexemes: Vec<String> = terms.iter().map(|t| quote_lexeme(&t.lexeme)).collect();
        return q.bind(lexemes).bind(terms.iter().map(|t| t.weight).collect::<Vec<f64>>());
    }
    for t in terms {
        q = q.bind(quote_lexeme(&t.lexeme)).bind(t.weight);
    }
    q
}

/// BM25 candidates passing `filter`, best first, as `(id, bm25)`.
pub(crate) async fn candidates(
    cache: &StatsCache,
    pool: &PgPool,
    tokens: &[String],
    filter: &SearchFilter,
    limit: usize,
) -> Result<Vec<(String, f64)>> {
    if tokens.is_empty() {
        return Ok(Vec::new());
    }
    let stats = cache.get(pool).await?;
    let (terms, avgdl, in_scopes) = cache.counted(pool, &stats, terms(&stats, tokens), Corpus::of(filter)).await?;
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    let all: Vec<&Term> = terms.iter().collect();
    let through = |select: &[&Term]| {
        let matches: f64 = select.iter().map(|t| t.df).sum();
        run(pool, or_query(select), &terms, avgdl, filter, limit, scope_by_row(in_scopes, matches))
    };
    let need = limit.max(1) * 4;
    let budget = if cache.bounded(&stats) { RANK_BUDGET } else { f64::INFINITY };
    let Some(pick) = selecting(&terms, need, budget) else {
        return through(&all).await;
    };
    let mut out = through(&pick).await?;
    let mut used = pick;
    // Too few: first every selective token, whatever the records they bring.
    if out.len() < limit {
        match selecting(&terms, need, f64::INFINITY) {
            None => return through(&all).await,
            Some(selective) if selective.len() > used.len() => {
                out = through(&selective).await?;
                used = selective;
            }
            Some(_) => {}
        }
    }
    // Still too few: widen to every token that is not near-ubiquitous. Records matching only
    // those (stop-word-like, BM25 weight near zero) are never worth scanning most of the table for.
    let wider: Vec<&Term> =
        terms.iter().filter(|t| t.freq <= TOO_COMMON || used.iter().any(|p| p.lexeme == t.lexeme)).collect();
    if out.len() < limit && wider.len() > used.len() {
        return through(&wider).await;
    }
    Ok(out)
}

/// Whether a ranking whose words match about `matches` records checks each one's scope rather
/// than intersecting with the scope index, for a search whose scopes hold `in_scopes` records.
fn scope_by_row(in_scopes: Option<f64>, matches: f64) -> bool {
    in_scopes.is_some_and(|n| n > matches * SCOPE_INDEX_PER_MATCH)
}

/// One ranking statement. `scope_rows`: the scopes are checked on each record the words'
/// index finds rather than intersected with the scope index (see `SCOPE_INDEX_PER_MATCH`).
async fn run(
    pool: &PgPool,
    select: String,
    terms: &[Term],
    avgdl: f64,
    filter: &SearchFilter,
    limit: usize,
    scope_rows: bool,
) -> Result<Vec<(String, f64)>> {
    let limit_at = 2 + filter::PARAMS;
    let (score, t) = rank(&format!("${}", limit_at + 1), limit_at + 2, terms.len());
    let sql = format!(
        "SELECT e.id, {score} AS r FROM experiences e, {t} WHERE e.tsv @@ $1::tsquery AND {} \
         ORDER BY r DESC, e.seq LIMIT ${limit_at}",
        if scope_rows { filter::sql_by_row(2) } else { filter::sql(2) }
    );
    let q = filter::bind(sqlx::query(sqlx::AssertSqlSafe(sql)).bind(select), filter).bind(limit as i64).bind(avgdl);
    let rows = bind_terms(q, terms).fetch_all(pool).await.map_err(db_err)?;
    scored(rows)
}

/// BM25 of the given records for `tokens`.
pub(crate) async fn scores(
    cache: &StatsCache,
    pool: &PgPool,
    tokens: &[String],
    ids: &[String],
    filter: &SearchFilter,
) -> Result<Vec<(String, f64)>> {
    if tokens.is_empty() || ids.is_empty() {
        return Ok(Vec::new());
    }
    let stats = cache.get(pool).await?;
    let (terms, avgdl, _) = cache.counted(pool, &stats, terms(&stats, tokens), Corpus::of(filter)).await?;
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    let all: Vec<&Term> = terms.iter().collect();
    let (score, t) = rank("$3", 4, terms.len());
    let sql = format!("SELECT e.id, {score} FROM experiences e, {t} WHERE e.id = ANY($2) AND e.tsv @@ $1::tsquery");
    let q = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(or_query(&all)).bind(ids).bind(avgdl);
    let rows = bind_terms(q, &terms).fetch_all(pool).await.map_err(db_err)?;
    scored(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support;

    /// The SQL ranking is BM25 as written out here: term frequencies from the positions, lengths
    /// in distinct lexemes, IDF 1 before any ANALYZE, each repeat saturating, unmatched terms
    /// adding nothing; the same in `scores` and `candidates`.
    #[tokio::test]
    async fn sql_ranking_is_bm25() {
        if test_support::skipped("sql_ranking_is_bm25") {
            return;
        }
        let url = test_support::fresh_database().await;
        let store = crate::PgStore::connect(&url, crate::PgOptions::default()).await.unwrap();
        let pool = store.pool();
        // (id, tsvector): 2, 3 and 6 distinct lexemes; b repeats "timeout" three times.
        let docs = [
            ("a", "'timeout':1 'fix':2"),
            ("b", "'timeout':1,3,5 'pool':2 'fix':4,6"),
            ("c", "'pool':1 'x1':2 'x2':3 'x3':4 'x4':5 'it''s':6"),
        ];
        for (id, tsv) in docs {
            sqlx::query(
                "INSERT INTO experiences (id, task, resource, result, score, outcome, source, status, language, \
                 content_hash, task_resource_hash, created_at, updated_at, tsv) VALUES ($1, 't', 'r', 'r', 3, \
                 'success', 'manual', 'approved', 'en', $1, $1, 'x', 'x', $2::tsvector)",
            )
            .bind(id)
            .bind(tsv)
            .execute(pool)
            .await
            .unwrap();
        }
        let avgdl = (2.0 + 3.0 + 6.0) / 3.0;
        let bm25 = |tfs: &[f64], len: f64| -> f64 {
            tfs.iter().map(|tf| tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / avgdl))).sum()
        };
        let query: Vec<String> = ["timeout", "pool", "it's", "absent"].iter().map(|t| t.to_string()).collect();
        let want = [("a", bm25(&[1.0], 2.0)), ("b", bm25(&[3.0, 1.0], 3.0)), ("c", bm25(&[1.0, 1.0], 6.0))];
        let cache = StatsCache::new(BOUNDED_FROM);
        let ids: Vec<String> = want.iter().map(|w| w.0.to_string()).collect();
        // A query past INLINE_TERMS (a pasted page) ranks through arrays, to the same scores.
        let mut long = query.clone();
        long.extend((0..2_000).map(|i| format!("filler{i}")));
        assert!(long.len() > INLINE_TERMS, "the array form");
        for (name, q) in [("short", &query), ("long", &long)] {
            let mut got = scores(&cache, pool, q, &ids, &SearchFilter::default()).await.unwrap();
            got.sort_by(|x, y| x.0.cmp(&y.0));
            assert_eq!(got.len(), 3, "{name}: {got:?}");
            for ((gid, g), (wid, w)) in got.iter().zip(want) {
                assert_eq!(gid, wid, "{name}");
                // `ts_rank_cd` is a float4: 0.1 per occurrence is 0.1 to 7 digits.
                assert!((g - w).abs() < 1e-6, "{name} query, {gid}: {g} != {w}");
            }
            let ranked = candidates(&cache, pool, q, &SearchFilter::default(), 10).await.unwrap();
            let order: Vec<&str> = ranked.iter().map(|r| r.0.as_str()).collect();
            assert_eq!(order, ["b", "c", "a"], "{name}: {ranked:?}");
            for (id, g) in &ranked {
                let w = want.iter().find(|w| w.0 == id).unwrap().1;
                assert!((g - w).abs() < 1e-6, "{name} query, {id}: {g} != {w}");
            }
        }
        // Repeats saturate: b's three "timeout" count less than three times a's one.
        assert!(bm25(&[3.0], 3.0) < 3.0 * bm25(&[1.0], 3.0));
    }

    #[test]
    fn mean_length_is_reused_while_recent_and_the_table_is_about_the_same_size() {
        let t0 = Instant::now();
        let at = |n: f64| Some(Length { at: t0, n, avgdl: 17.0 });
        assert_eq!(reuse_length(None, 100_000.0, t0), None, "nothing sampled yet");
        assert_eq!(reuse_length(at(100_000.0), 100_000.0, t0 + Duration::from_secs(10)), Some(17.0));
        assert_eq!(reuse_length(at(100_000.0), 109_000.0, t0 + Duration::from_secs(290)), Some(17.0));
        assert_eq!(reuse_length(at(100_000.0), 111_000.0, t0), None, "grew by over a tenth");
        assert_eq!(reuse_length(at(100_000.0), 89_000.0, t0), None, "shrank by over a tenth");
        assert_eq!(reuse_length(at(100_000.0), 100_000.0, t0 + LENGTH_TTL), None, "too old");
        assert_eq!(reuse_length(at(-1.0), -1.0, t0), None, "never analysed: always sampled");
        assert_eq!(reuse_length(at(-1.0), 5_000.0, t0), None, "first estimate");
    }

    #[test]
    fn large_scopes_are_checked_per_match_and_small_ones_through_their_index() {
        // `org` and a team (26,000 records) for 144 matches: per match; a 338-record team, or
        // 4,510 matches of a common word: the intersection; an unscoped search: never per match.
        assert!(scope_by_row(Some(26_000.0), 144.0));
        assert!(!scope_by_row(Some(338.0), 144.0));
        assert!(!scope_by_row(Some(26_000.0), 4_510.0));
        assert!(!scope_by_row(None, 144.0));
    }

    #[test]
    fn common_tokens_weigh_less_and_do_not_select() {
        let (a, b, c) = ("the".to_string(), "timeout".to_string(), "pgbouncer".to_string());
        let toks = vec![&a, &b, &c];
        let stats = Stats::new(100_000.0, vec!["the".into(), "timeout".into()], vec![0.6, 0.01, 0.01, 0.6, 0.0], 12.0);
        let t = weigh(&toks, &stats);
        assert!(t[0].idf < t[1].idf && t[1].idf < t[2].idf, "{t:?}");
        let picked: Vec<&str> = selecting(&t, 80, f64::INFINITY).unwrap().iter().map(|t| t.lexeme.as_str()).collect();
        assert_eq!(picked, vec!["pgbouncer", "timeout"], "without a budget, every token under 2% selects");
        let picked: Vec<&str> = selecting(&t, 80, RANK_BUDGET).unwrap().iter().map(|t| t.lexeme.as_str()).collect();
        assert_eq!(picked, vec!["pgbouncer"], "~500 + ~1,000 records do not fit 1,000");
        // Many selective tokens: the rarest ones select, within the ranking budget; all still rank.
        let words: Vec<String> = (0..6).map(|i| format!("w{i}")).collect();
        let t: Vec<Term> = words.iter().enumerate().map(|(i, w)| Term::new(w, 400.0 + i as f64, 100_000.0)).collect();
        let picked: Vec<&str> = selecting(&t, 80, RANK_BUDGET).unwrap().iter().map(|t| t.lexeme.as_str()).collect();
        assert_eq!(picked, vec!["w0", "w1"], "2 × ~400 records fit 1,000, a 3rd does not");
        assert!(selecting(&t, 80, f64::INFINITY).is_none(), "no budget: every selective token, so all of them");
        // The rarest always selects, even past the budget; a search needing more widens it.
        let t = vec![Term::new("big", 3_000.0, 100_000.0), Term::new("bigger", 3_500.0, 100_000.0)];
        assert_eq!(selecting(&t, 80, RANK_BUDGET).unwrap().len(), 1);
        assert!(selecting(&t, 20_000, RANK_BUDGET).is_none());
        // Without statistics: equal weights, everything selects.
        let t = weigh(&toks, &Stats::new(-1.0, vec![], vec![], f64::NAN));
        assert!(t.iter().all(|t| t.idf == 1.0));
        assert!(selecting(&t, 80, RANK_BUDGET).is_none());
    }

    #[test]
    fn tsvector_keeps_identifiers_and_quotes() {
        let t =
            vec!["err_connection_refused".to_string(), "it's".into(), "a\\b".into(), "err_connection_refused".into()];
        assert_eq!(tsvector_text(&t), "'err_connection_refused':1 'it''s':2 'a\\\\b':3 'err_connection_refused':4");
    }
}
