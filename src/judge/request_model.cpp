#include "judge/request_model.h"

#include <algorithm>

namespace vkp {

bool isAccess(const Trace& t, const TraceEvent& e) {
    return (e.kind == TraceEventKind::Read || e.kind == TraceEventKind::Write ||
            e.kind == TraceEventKind::Atomic) &&
           e.variable < t.variables.size();
}

uint64_t packedSite(const TraceEvent& e) {
    return (uint64_t(e.line) << 16) | (uint64_t(e.variable) << 8) | uint64_t(e.kind);
}

// `sorted`: the lanes' indices, ascending (repeats allowed). `laneSpan`: the elements of the lanes
// from the first active lane to the last, inactive ones between included (a lane of vec4s counts
// four). Lanes that are apart in the subgroup may be apart in memory: the request needs at least
// the sectors of its distinct bytes packed together, or, where more, of one element per lane of its
// span (lanes 5, 6 and 8 adding to bins 5, 6 and 8, bin 7 skipped, need bytes 20 to 35: two
// sectors, not one).
Sectors sectorsOf(const MemoryModel& m, const std::vector<uint32_t>& sorted, uint64_t laneSpan) {
    Sectors s;
    if (sorted.empty()) return s;
    uint64_t sector = m.sectorBytes ? m.sectorBytes : 1, distinct = 0, lastSector = ~0ull;
    for (size_t i = 0; i < sorted.size(); ++i) {
        if (i && sorted[i] == sorted[i - 1]) continue;
        ++distinct;
        uint64_t at = sorted[i] * kElementBytes / sector;
        if (at != lastSector) ++s.touched, lastSector = at;
    }
    uint64_t offset = sorted.front() * kElementBytes % sector;
    uint64_t bytes = std::max(distinct, laneSpan) * kElementBytes;
    s.needed = std::min(s.touched, (offset + bytes + sector - 1) / sector);
    return s;
}

uint64_t laneSpan(const std::vector<uint32_t>& lanes) {
    if (lanes.empty()) return 0;
    uint64_t widest = 0, run = 0;
    for (size_t k = 0; k < lanes.size(); ++k) {
        run = k > 0 && lanes[k] == lanes[k - 1] ? run + 1 : 1;
        widest = std::max(widest, run);
    }
    return (uint64_t(lanes.back()) - lanes.front() + 1) * widest;
}

Banks banksOf(const MemoryModel& m, const std::vector<uint32_t>& sorted,
              std::vector<uint32_t>& perBank) {
    uint32_t banks = std::max<uint32_t>(1, m.banks);
    uint64_t width = std::max<uint32_t>(1, m.bankBytes);
    perBank.assign(banks, 0);
    Banks b;
    uint64_t lastWord = ~0ull;
    for (uint32_t i : sorted) {
        uint64_t word = i * kElementBytes / width;
        if (word == lastWord) continue; // a broadcast: the same word to many lanes
        lastWord = word;
        uint32_t bank = static_cast<uint32_t>(word % banks);
        if (++perBank[bank] > b.ways || (perBank[bank] == b.ways && bank < b.bank && b.ways > 1))
            b = {perBank[bank], bank};
    }
    return b;
}

// A Read or Write of a vector's scalar after its first: the same execution of its site as the
// scalar before it (one instruction moved them together).
bool continuesVector(const TraceEvent& e) {
    return (e.kind == TraceEventKind::Read || e.kind == TraceEventKind::Write) &&
           vectorWidthOf(e.extra) > 1 && vectorComponentOf(e.extra) > 0;
}

// A shared request's wavefronts. `lanes` (ascending) and `indices` pair up, a lane once per
// scalar it moved. A lane that moves a vector moves its words at once; as on NVIDIA GPUs, such a
// request is served a phase at a time, each phase the lanes whose words fill one pass of the
// banks (8 lanes of 16 bytes), and only words of one phase conflict. ways: the worst phase's;
// wavefronts: one, plus each phase's ways past its first, so that a conflict-free request costs
// one, as a scalar one does.

PhasedBanks phasedBanks(const MemoryModel& m, const std::vector<uint32_t>& lanes,
                        const std::vector<uint32_t>& indices, std::vector<uint32_t>& phase,
                        std::vector<uint32_t>& perBank) {
    uint32_t widest = 0, run = 0;
    for (size_t k = 0; k < lanes.size(); ++k) {
        run = k > 0 && lanes[k] == lanes[k - 1] ? run + 1 : 1;
        widest = std::max(widest, run);
    }
    PhasedBanks w;
    if (widest <= 1) {
        phase.assign(indices.begin(), indices.end());
        std::sort(phase.begin(), phase.end());
        w.banks = banksOf(m, phase, perBank);
        w.wavefronts = w.banks.ways;
        return w;
    }
    uint64_t pass = uint64_t(std::max<uint32_t>(1, m.banks)) * std::max<uint32_t>(1, m.bankBytes);
    uint32_t perPhase = uint32_t(std::max<uint64_t>(1, pass / (kElementBytes * widest)));
    w.banks.ways = 0;
    for (size_t a = 0; a < lanes.size();) {
        uint32_t which = lanes[a] / perPhase;
        phase.clear();
        size_t b = a;
        while (b < lanes.size() && lanes[b] / perPhase == which)
            phase.push_back(indices[b++]);
        std::sort(phase.begin(), phase.end());
        Banks p = banksOf(m, phase, perBank);
        w.wavefronts += p.ways - 1;
        if (p.ways > w.banks.ways)
            w.banks = p, w.firstLane = which * perPhase, w.lastLane = w.firstLane + perPhase - 1;
        a = b;
    }
    return w;
}

uint32_t mostOnOneAddress(const std::vector<uint32_t>& sorted) {
    uint32_t most = 0, run = 0;
    for (size_t i = 0; i < sorted.size(); ++i) {
        run = i && sorted[i] == sorted[i - 1] ? run + 1 : 1;
        most = std::max(most, run);
    }
    return most;
}

} // namespace vkp
