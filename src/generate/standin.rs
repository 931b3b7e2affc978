//! TEMPORARY stand-in for `crate::canon` until branch t27a is merged: relabels digits only.
/// Stand-in.
pub fn minlex_string(givens: &[u8; 81]) -> String {
    let mut map = [0u8; 10];
    let mut next = 1;
    givens
        .iter()
        .map(|&d| {
            if d == 0 {
                '0'
            } else {
                if map[d as usize] == 0 {
                    map[d as usize] = next;
                    next += 1;
                }
                (b'0' + map[d as usize]) as char
            }
        })
        .collect()
}
