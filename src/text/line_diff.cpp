#include "text/line_diff.h"

#include <algorithm>
#include <sstream>

namespace vkp::text {
namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l))
        out.push_back(l);
    return out;
}

std::string trimRight(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.pop_back();
    return s;
}

} // namespace

std::vector<DiffLine> diffLines(const std::string& before, const std::string& after) {
    std::vector<std::string> a = lines(before), b = lines(after);
    std::vector<std::string> ka(a.size()), kb(b.size());
    std::transform(a.begin(), a.end(), ka.begin(), trimRight);
    std::transform(b.begin(), b.end(), kb.begin(), trimRight);
    size_t n = a.size(), m = b.size();
    // lcs[i][j]: length of the common subsequence of a[i..] and b[j..]. Kernels are short.
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            lcs[i][j] =
                ka[i] == kb[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::vector<DiffLine> out;
    size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && ka[i] == kb[j]) {
            out.push_back({DiffKind::Same, int(i), int(j), b[j]});
            ++i, ++j;
        } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
            out.push_back({DiffKind::Added, -1, int(j), b[j]});
            ++j;
        } else {
            out.push_back({DiffKind::Removed, int(i), -1, a[i]});
            ++i;
        }
    }
    // Within a changed block, show the learner's lines before the solution's.
    for (size_t s = 0; s < out.size();) {
        size_t e = s;
        while (e < out.size() && out[e].kind != DiffKind::Same)
            ++e;
        std::stable_partition(out.begin() + s, out.begin() + e,
                              [](const DiffLine& d) { return d.kind == DiffKind::Removed; });
        s = e == s ? s + 1 : e;
    }
    return out;
}

DiffStats diffStats(const std::vector<DiffLine>& diff) {
    DiffStats s;
    for (const DiffLine& d : diff) {
        s.added += d.kind == DiffKind::Added;
        s.removed += d.kind == DiffKind::Removed;
    }
    return s;
}

} // namespace vkp::text
