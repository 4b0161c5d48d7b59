//! In-memory BM25 index over the segmented tokens stored in FTS5.
//!
//! FTS5 has no top-k pruning and its `bm25()` costs ~2.5 µs per matching row (a docsize lookup
//! and the auxiliary-function API per row): a query whose terms match 10k of 100k records takes
//! ~10-25 ms. Scoring term-at-a-time over compact in-memory postings computes the *same* BM25
//! (FTS5's formula: k1 = 1.2, b = 0.75, idf = ln((N − n + 0.5)/(n + 0.5)), floored at 1e-6)
//! in tens of microseconds. FTS5 stays the durable copy of the tokens; this index is rebuilt
//! from it at startup and updated after each commit.
//!
//! One difference from FTS5: N, the document frequencies and the mean length are those of the
//! records the search may read (`filter::corpus`: its status and scopes, nothing held), not of
//! the whole table. Otherwise records hidden from the caller (another team's, pending, held)
//! would still weigh its words: thirty hidden records holding one query word made that word
//! common and moved a visible record holding it below another.

use hashbrown::HashMap;
use knowhub_core::{Result, SearchFilter, Status};
use rusqlite::Connection;

use super::table::Rows;
use crate::db::sql_err;
use crate::filter::{corpus, Facets, Meta};

/// A query term's IDF and its postings (document index, term frequency).
type Weighed<'a> = (f64, &'a [(u32, u32)]);

const K1: f64 = 1.2;
const B: f64 = 0.75;

#[derive(Debug, Default)]
pub struct TermIndex {
    terms: HashMap<Box<str>, u32>,
    /// term id -> (doc index, term frequency)
    postings: Vec<Vec<(u32, u32)>>,
    rows: Rows,
    lens: Vec<u32>,
    /// Records currently indexed (rows minus retired ones).
    live: usize,
    /// Per scope and status, the records not held and their total length: the corpus sizes.
    sizes: HashMap<(u32, Status), (u64, u64)>,
}

impl TermIndex {
    /// Builds the index from every row of the FTS5 table.
    pub fn load(conn: &Connection) -> Result<Self> {
        let mut idx = TermIndex::default();
        let n: i64 = conn.query_row("SELECT count(*) FROM experiences", [], |r| r.get(0)).map_err(sql_err)?;
        idx.rows.reserve(n.max(0) as usize);
        idx.lens.reserve(n.max(0) as usize);
        let mut st = conn
            .prepare(
                "SELECT f.rowid, f.body, e.id, e.score, e.status, e.agent_id, e.scope, e.held FROM experiences_fts f \
                 JOIN experiences e ON e.seq = f.rowid ORDER BY f.rowid",
            )
            .map_err(sql_err)?;
        let mut rows = st.query([]).map_err(sql_err)?;
        while let Some(r) = rows.next().map_err(sql_err)? {
            let status: String = r.get(4).map_err(sql_err)?;
            // Borrowed from SQLite's row buffer: no copy of the 100 MB of token text at 1M.
            let facets = Facets {
                score: r.get::<_, i64>(3).map_err(sql_err)? as u8,
                status: Status::parse(&status).unwrap_or(Status::Pending),
                agent: crate::rows::row_str(r, 5)?,
                scope: crate::rows::row_str(r, 6)?,
                held: r.get::<_, i64>(7).map_err(sql_err)? != 0,
            };
            idx.add(r.get(0).map_err(sql_err)?, crate::rows::row_str(r, 2)?, crate::rows::row_str(r, 1)?, facets);
        }
        Ok(idx)
    }

    pub fn len(&self) -> usize {
        self.live
    }

    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Adds a record's space-separated tokens (as stored in FTS5). A known `seq` is ignored:
    /// a record's searchable text never changes in place.
    pub(crate) fn add(&mut self, seq: i64, id: &str, body: &str, facets: Facets<'_>) {
        if self.rows.row_of_seq(seq).is_some() {
            return;
        }
        let doc = self.rows.len() as u32;
        let mut tf: HashMap<&str, u32> = HashMap::new();
        let mut len = 0u32;
        for t in body.split_whitespace() {
            *tf.entry(t).or_insert(0) += 1;
            len += 1;
        }
        for (t, n) in tf {
            // `entry_ref` allocates the key only for a new token (most tokens are known).
            let next = self.postings.len() as u32;
            let tid = *self.terms.entry_ref(t).or_insert(next);
            if tid == next {
                self.postings.push(Vec::new());
            }
            self.postings[tid as usize].push((doc, n));
        }
        let row = self.rows.push(seq, id, facets);
        self.lens.push(len);
        self.live += 1;
        self.account(row, true);
    }

    /// Adds (or takes away) a row's record to its corpus size.
    fn account(&mut self, row: usize, add: bool) {
        let Meta { scope, status, held, .. } = self.rows.meta[row];
        if held {
            return;
        }
        let e = self.sizes.entry((scope, status)).or_default();
        let len = u64::from(self.lens[row]);
        if add {
            *e = (e.0 + 1, e.1 + len);
        } else {
            *e = (e.0.saturating_sub(1), e.1.saturating_sub(len));
        }
    }

    /// The records `filter` may read (see `filter::corpus`) and their total length.
    fn corpus_size(&self, filter: &SearchFilter) -> (u64, u64) {
        let scopes = self.rows.agents.scope_ids(filter);
        self.sizes
            .iter()
            .filter(|((sc, st), _)| *st == filter.status && scopes.as_ref().is_none_or(|v| v.contains(sc)))
            .fold((0, 0), |(n, l), (_, (a, b))| (n + a, l + b))
    }

    /// Takes a record out (deleted, or edited before being re-added with its new `body`), so
    /// N, document frequencies and the average length stay exact. `body` is the text it was
    /// indexed with.
    pub fn remove(&mut self, seq: i64, body: &str) {
        let Some(row) = self.rows.row_of_seq(seq) else { return };
        self.account(row, false);
        let Some(row) = self.rows.forget(seq) else { return };
        let doc = row as u32;
        let mut seen = std::collections::HashSet::new();
        for t in body.split_whitespace().filter(|t| seen.insert(*t)) {
            if let Some(&tid) = self.terms.get(t) {
                let list = &mut self.postings[tid as usize];
                if let Ok(i) = list.binary_search_by_key(&doc, |p| p.0) {
                    list.remove(i);
                }
            }
        }
        self.lens[row] = 0;
        self.live -= 1;
    }

    /// Approve/reject changes visibility only.
    pub fn set_status(&mut self, seq: i64, status: Status) {
        if let Some(row) = self.rows.row_of_seq(seq) {
            self.account(row, false);
            self.rows.set_status(seq, status);
            self.account(row, true);
        }
    }

    /// A review may also change the rating (and a move the scope, a hold the visibility).
    pub(crate) fn set_meta(&mut self, seq: i64, facets: Facets<'_>) {
        if let Some(row) = self.rows.row_of_seq(seq) {
            self.account(row, false);
            self.rows.set_meta(row, facets);
            self.account(row, true);
        }
    }

    /// The postings of `terms` (each once) with their IDF over the corpus `filter` may read, and
    /// that corpus's mean length; `None` when it holds nothing.
    fn weighed<'a>(&'a self, terms: &[String], filter: &SearchFilter) -> Option<(Vec<Weighed<'a>>, f64)> {
        let (n, total) = self.corpus_size(filter);
        if n == 0 {
            return None;
        }
        let readable = self.rows.agents.matcher(&corpus(filter))?;
        let mut seen = std::collections::HashSet::new();
        let lists = terms
            .iter()
            .filter(|t| seen.insert(t.as_str()))
            .filter_map(|t| self.terms.get(t.as_str()))
            .map(|&tid| {
                let l = self.postings[tid as usize].as_slice();
                let df = l.iter().filter(|(d, _)| readable(&self.rows.meta[*d as usize])).count();
                (idf(n as f64, df as f64), l)
            })
            .collect();
        Some((lists, total as f64 / n as f64))
    }

    fn term_weight(&self, tf: u32, doc: usize, avgdl: f64) -> f64 {
        let tf = f64::from(tf);
        tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * f64::from(self.lens[doc]) / avgdl))
    }

    /// BM25 of specific records, weighed over the corpus `filter` may read (postings are in
    /// document order, so each lookup is a binary search).
    pub fn score_ids(&self, terms: &[String], ids: &[String], filter: &SearchFilter) -> Vec<(String, f64)> {
        let Some((lists, avgdl)) = self.weighed(terms, filter) else { return Vec::new() };
        ids.iter()
            .filter_map(|id| {
                let d = self.rows.row_of_id(id)? as u32;
                let s: f64 = lists
                    .iter()
                    .filter_map(|(idf, l)| {
                        let i = l.binary_search_by_key(&d, |p| p.0).ok()?;
                        Some(idf * self.term_weight(l[i].1, d as usize, avgdl))
                    })
                    .sum();
                (s > 0.0).then(|| (id.clone(), s))
            })
            .collect()
    }

    /// Top `k` records passing `filter` by BM25 over `terms` (duplicates ignored), best first.
    pub fn search(&self, terms: &[String], filter: &SearchFilter, k: usize) -> Vec<(String, f64)> {
        let n = self.rows.len();
        if self.live == 0 || k == 0 {
            return Vec::new();
        }
        let Some(pass) = self.rows.agents.matcher(filter) else { return Vec::new() };
        let Some((lists, avgdl)) = self.weighed(terms, filter) else { return Vec::new() };
        let mut acc = vec![0f64; n];
        let mut touched: Vec<u32> = Vec::new();
        for (idf, list) in lists {
            for &(d, tf) in list {
                let di = d as usize;
                if !pass(&self.rows.meta[di]) {
                    continue;
                }
                if acc[di] == 0.0 {
                    touched.push(d);
                }
                acc[di] += idf * self.term_weight(tf, di, avgdl);
            }
        }
        let by_score = |a: &u32, b: &u32| acc[*b as usize].total_cmp(&acc[*a as usize]).then(a.cmp(b));
        if touched.len() > k {
            touched.select_nth_unstable_by(k - 1, by_score);
            touched.truncate(k);
        }
        touched.sort_by(by_score);
        touched.into_iter().map(|d| (self.rows.ids[d as usize].to_string(), acc[d as usize])).collect()
    }
}

/// FTS5's IDF: `ln((N − n + 0.5) / (n + 0.5))`, floored at 1e-6.
fn idf(n: f64, df: f64) -> f64 {
    ((n - df + 0.5) / (df + 0.5)).ln().max(1e-6)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facets(scope: &str, status: Status, held: bool) -> Facets<'_> {
        Facets { score: 4, status, agent: "a", scope, held }
    }

    /// A word's weight is counted over the records a search may read: another scope's, pending
    /// and held records holding it leave a caller's scores alone; a caller that reads them weighs
    /// it down; and a record leaving the corpus (a move, a hold) leaves the counts with it.
    #[test]
    fn weights_follow_the_readable_records() {
        let mut t = TermIndex::default();
        t.add(1, "a", "rotate zanzibar logs", facets("org", Status::Approved, false));
        t.add(2, "b", "rotate quixotic logs", facets("org", Status::Approved, false));
        let q: Vec<String> = ["zanzibar", "quixotic"].iter().map(|s| s.to_string()).collect();
        let org = SearchFilter { scopes: Some(vec!["org".into()]), ..Default::default() };
        let both = SearchFilter { scopes: Some(vec!["org".into(), "team/h".into()]), ..Default::default() };
        let score = |t: &TermIndex, f: &SearchFilter, id: &str| {
            t.score_ids(&q, &["a".into(), "b".into()], f).into_iter().find(|x| x.0 == id).unwrap().1
        };
        let before = (score(&t, &org, "a"), score(&t, &org, "b"));
        assert!((before.0 - before.1).abs() < 1e-12);
        for i in 0..6i64 {
            t.add(10 + i, &format!("h{i}"), "zanzibar checklist", facets("team/h", Status::Approved, false));
            t.add(20 + i, &format!("p{i}"), "zanzibar draft", facets("org", Status::Pending, false));
            t.add(30 + i, &format!("q{i}"), "zanzibar held", facets("org", Status::Approved, true));
        }
        assert_eq!((score(&t, &org, "a"), score(&t, &org, "b")), before);
        assert_eq!(t.search(&q, &org, 5), t.score_ids(&q, &["a".into(), "b".into()], &org));
        assert!(score(&t, &both, "a") < score(&t, &both, "b"));
        // Moving team/h's records to another scope takes them out of `both`'s counts.
        for i in 0..6i64 {
            t.set_meta(10 + i, facets("team/x", Status::Approved, false));
        }
        assert!((score(&t, &both, "a") - score(&t, &both, "b")).abs() < 1e-12);
    }
}
