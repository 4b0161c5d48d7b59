//! The record table both in-memory indexes keep, with the per-record metadata a search filters
//! on (see `filter`), so a search never needs a database round trip to apply the filter.

use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashMap, HashTable};

use knowhub_core::Status;

use crate::filter::{Agents, Facets, Meta};

/// The record table both in-memory indexes keep: row i is record `ids[i]` with `meta[i]`,
/// found by row number (`seq`) or by id. At 1M records every byte per row is a megabyte, and
/// both in-memory indexes hold one of these: ids are kept once (the id lookup table stores row
/// numbers and hashes the id in `ids`), and the maps use hashbrown's seeded foldhash rather
/// than SipHash, which was a fifth of the time of loading the indexes.
#[derive(Default)]
pub(crate) struct Rows {
    pub ids: Vec<Box<str>>,
    pub meta: Vec<Meta>,
    pos: HashMap<i64, u32>,
    by_id: HashTable<u32>,
    hasher: DefaultHashBuilder,
    pub agents: Agents,
}

impl std::fmt::Debug for Rows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rows").field("rows", &self.ids.len()).finish()
    }
}

impl Rows {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Rows there is room for without growing.
    pub fn capacity(&self) -> usize {
        self.ids.capacity()
    }

    /// Room for `n` more rows, so a bulk load does not rehash as it grows.
    pub fn reserve(&mut self, n: usize) {
        self.ids.reserve(n);
        self.meta.reserve(n);
        self.pos.reserve(n);
        let (ids, hasher) = (&self.ids, &self.hasher);
        self.by_id.reserve(n, |&r| hasher.hash_one(&*ids[r as usize]));
    }

    pub fn row_of_seq(&self, seq: i64) -> Option<usize> {
        self.pos.get(&seq).map(|&r| r as usize)
    }

    pub fn row_of_id(&self, id: &str) -> Option<usize> {
        let ids = &self.ids;
        self.by_id.find(self.hasher.hash_one(id), |&r| &*ids[r as usize] == id).map(|&r| r as usize)
    }

    /// Appends a record; returns its row.
    pub fn push(&mut self, seq: i64, id: &str, f: Facets<'_>) -> usize {
        let row = self.ids.len();
        let meta = self.agents.meta(f);
        self.pos.insert(seq, row as u32);
        self.ids.push(id.into());
        let (ids, hasher) = (&self.ids, &self.hasher);
        let h = hasher.hash_one(id);
        // An id seen before (a record re-added with new text) now finds its newest row.
        match self.by_id.find_mut(h, |&r| &*ids[r as usize] == id) {
            Some(r) => *r = row as u32,
            None => {
                self.by_id.insert_unique(h, row as u32, |&r| hasher.hash_one(&*ids[r as usize]));
            }
        }
        self.meta.push(meta);
        row
    }

    pub fn set_meta(&mut self, row: usize, f: Facets<'_>) {
        self.meta[row] = self.agents.meta(f);
    }

    pub fn set_status(&mut self, seq: i64, status: Status) {
        if let Some(row) = self.row_of_seq(seq) {
            self.meta[row].status = status;
        }
    }

    /// Retires a record's row (deleted, or about to be re-added with new text): it can no longer
    /// be found, never passes a filter, and its `seq` may be reused. Returns the old row.
    pub fn forget(&mut self, seq: i64) -> Option<usize> {
        let row = self.pos.remove(&seq)? as usize;
        let h = self.hasher.hash_one(&*self.ids[row]);
        if let Ok(e) = self.by_id.find_entry(h, |&r| r as usize == row) {
            e.remove();
        }
        self.meta[row].status = Status::Rejected;
        self.meta[row].score = 0; // below any min_score, so no filter passes it
        Some(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use knowhub_core::SearchFilter;

    fn facets(score: u8, agent: &str) -> Facets<'_> {
        Facets { score, status: Status::Approved, agent, scope: "org", held: false }
    }

    /// Ids are found by the one copy in `ids`, through growth (rehashing reads `ids` too), a
    /// re-added id finds its newest row, and forgetting an old row leaves the new one findable.
    #[test]
    fn ids_seqs_and_forgetting() {
        let mut r = Rows::default();
        r.reserve(2);
        for i in 0..5000i64 {
            assert_eq!(r.push(i, &format!("id{i}"), facets(3, if i % 2 == 0 { "a" } else { "b" })), i as usize);
        }
        for i in [0i64, 1, 2047, 4999] {
            assert_eq!(r.row_of_id(&format!("id{i}")), Some(i as usize));
            assert_eq!(r.row_of_seq(i), Some(i as usize));
        }
        assert_eq!(r.row_of_id("id5000"), None);
        assert_eq!(r.row_of_id("id"), None);
        // id7 edited: its old row is retired and the record comes back with a new seq.
        assert_eq!(r.forget(7), Some(7));
        assert_eq!(r.row_of_id("id7"), None);
        assert_eq!(r.push(9000, "id7", facets(4, "a")), 5000);
        assert_eq!(r.row_of_id("id7"), Some(5000));
        // A stale duplicate row of the same id forgotten later does not hide the newest.
        assert_eq!(r.push(9001, "id8", facets(4, "a")), 5001);
        assert_eq!(r.row_of_id("id8"), Some(5001));
        assert_eq!(r.forget(8), Some(8));
        assert_eq!(r.row_of_id("id8"), Some(5001));
        assert!(r.forget(8).is_none());
        let f = SearchFilter { agent_id: Some("b".into()), ..Default::default() };
        let pass = r.agents.matcher(&f).unwrap();
        assert!(pass(&r.meta[1]) && !pass(&r.meta[0]) && !pass(&r.meta[7]));
    }
}
