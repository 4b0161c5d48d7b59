//! Transparent huge pages for the vector codes, the one large array every search streams.
//!
//! Why: at 100k records a query's int8 scan reads 38 MB per model block; with 4 KB pages that
//! is a TLB miss every 4 KB, and in a virtual machine each miss walks two page tables. On a
//! 100k hub reopened from disk (a server after a restart), the scan's p50 went from 4.2-4.7 to
//! 3.1-3.6 ms here (bench/results/2026-11-26-load.md). The advice is only a hint: where transparent
//! huge pages are off, or on other systems, nothing changes.

/// 2 MB: the x86-64 and (4 KB-granule) aarch64 huge-page size.
#[cfg(target_os = "linux")]
const HUGE: usize = 2 << 20;

/// Ask the kernel to back the whole 2 MB-aligned part of `v`'s buffer with huge pages. Pages
/// not yet touched then fault in as huge pages; touched ones are left to `khugepaged`. So call
/// it after reserving, before filling.
#[cfg(target_os = "linux")]
pub fn advise<T>(v: &Vec<T>) {
    let start = v.as_ptr() as usize;
    let end = start + v.capacity() * std::mem::size_of::<T>();
    let (a, b) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
    if b > a {
        // SAFETY: [a, b) lies inside the vector's own allocation, and MADV_HUGEPAGE only
        // changes how the kernel backs those pages, never what they hold.
        unsafe { libc::madvise(a as *mut libc::c_void, b - a, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
pub fn advise<T>(_: &Vec<T>) {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    /// The kernel's flags for the mapping that holds `addr` (`VmFlags` in /proc/self/smaps).
    fn vm_flags(addr: usize) -> String {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            let first = line.split(' ').next().unwrap_or("");
            if let Some((a, b)) = first.split_once('-').filter(|_| !first.ends_with(':')) {
                let (a, b) = (usize::from_str_radix(a, 16).unwrap(), usize::from_str_radix(b, 16).unwrap());
                inside = (a..b).contains(&addr);
            } else if let Some(flags) = line.strip_prefix("VmFlags:").filter(|_| inside) {
                return flags.trim().to_string();
            }
        }
        panic!("no mapping holds {addr:#x}")
    }

    /// An 8 MB code array's aligned middle is marked for huge pages (`hg`), and only there
    /// (a small one is left alone).
    #[test]
    fn large_buffers_are_advised_for_huge_pages() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            eprintln!("this kernel has no transparent huge pages; nothing to check");
            return;
        }
        let mut big: Vec<i8> = Vec::with_capacity(8 << 20);
        super::advise(&big);
        let middle = big.as_ptr() as usize + (4 << 20);
        assert!(vm_flags(middle).split(' ').any(|f| f == "hg"), "{}", vm_flags(middle));
        big.resize(8 << 20, 1);
        assert_eq!(big.iter().map(|&b| b as i64).sum::<i64>(), 8 << 20, "contents unaffected");
        let small: Vec<i8> = Vec::with_capacity(4096);
        super::advise(&small);
        assert!(!vm_flags(small.as_ptr() as usize).split(' ').any(|f| f == "hg"));
    }
}
