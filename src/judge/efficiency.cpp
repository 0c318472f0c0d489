#include "judge/efficiency.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "base/source_text.h"
#include "judge/efficiency_text.h"
#include "judge/request_model.h"

namespace vkp {
namespace {

uint32_t busiestAddress(std::vector<uint32_t> v) {
    std::sort(v.begin(), v.end());
    uint32_t best = v.empty() ? 0 : v[0], most = 0, run = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        run = i && v[i] == v[i - 1] ? run + 1 : 1;
        if (run > most) most = run, best = v[i];
    }
    return best;
}

} // namespace

std::vector<uint32_t> RequestExample::activeLanes() const {
    std::vector<uint32_t> out(lanes);
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

namespace {

// What one site adds that the header does not hold: the line's sentence needs it.
struct SiteExtra {
    double exampleScore = -1;
    uint64_t atomicConflicts = 0; // lanes past the first on one address, summed over requests
    uint32_t mostReadsOfOne = 0;  // the most times one thread read one element here
    uint32_t mostReadElement = 0; // that element
};

struct Entry {
    uint32_t site, execution, lane, index;
};

// resyncExecutions' scratch, per site: lanes that ran it, the first one's runs, whether every
// lane ran it as often (then: a site where the lanes meet), a lane's runs, its epoch stamp, its
// last execution; the sites a lane touched; and the entries' new keys.
struct ResyncScratch {
    std::vector<uint32_t> siteLanes, siteRuns, laneRuns, lastExecution, touched;
    std::vector<uint8_t> siteEven;
    std::vector<uint64_t> stamp;
    struct Keyed {
        uint32_t site;
        uint64_t key;
        uint32_t entry;
        auto operator<=>(const Keyed&) const = default;
    };
    std::vector<Keyed> keys;
};

// A lane's k-th execution of a site is one request with the other lanes' k-th, as long as
// every lane runs each site as often. Where lanes run a loop a different number of times
// (rows of different lengths, a subgroup's lanes taking one row after another), the k-th
// would pair a row's last reads with the next row's first. There, executions are counted
// again from each execution of a site that every active lane ran equally often (the outer
// loop's step: a row's rowptr read), where the lanes meet as a subgroup does: a request is
// (the executions of such sites before it, the site's executions since). Kernels whose lanes
// all run every site equally often keep their numbers.
void resyncExecutions(std::vector<Entry>& entries, size_t sites, ResyncScratch& x) {
    x.siteLanes.assign(sites, 0);
    x.siteRuns.assign(sites, 0);
    x.siteEven.assign(sites, 1);
    x.laneRuns.assign(sites, 0);
    uint32_t active = 0;
    for (size_t i = 0; i < entries.size();) {
        size_t j = i; // one lane's entries, in program order
        x.touched.clear();
        for (; j < entries.size() && entries[j].lane == entries[i].lane; ++j) {
            const Entry& e = entries[j];
            if (x.laneRuns[e.site] == 0) x.touched.push_back(e.site);
            x.laneRuns[e.site] = std::max(x.laneRuns[e.site], e.execution + 1);
        }
        for (uint32_t site : x.touched) {
            if (x.siteLanes[site]++ == 0)
                x.siteRuns[site] = x.laneRuns[site];
            else if (x.siteRuns[site] != x.laneRuns[site])
                x.siteEven[site] = 0;
            x.laneRuns[site] = 0;
        }
        ++active;
        i = j;
    }
    bool uneven = false, anySync = false;
    for (size_t site = 0; site < sites; ++site) {
        if (x.siteLanes[site] == 0) continue;
        bool sync = x.siteEven[site] && x.siteLanes[site] == active;
        x.siteEven[site] = sync;
        anySync = anySync || sync;
        uneven = uneven || !sync;
    }
    if (!uneven || !anySync) return;
    // (site, epoch << 32 | execution in the epoch, entry): sorted, then numbered densely.
    x.keys.clear();
    x.stamp.assign(sites, UINT64_MAX);
    x.lastExecution.assign(sites, 0);
    x.laneRuns.assign(sites, 0);
    uint64_t lane = 0, epoch = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        if (i == 0 || e.lane != entries[i - 1].lane) ++lane, epoch = 0;
        uint64_t stamp = lane << 32 | epoch;
        bool fresh = x.stamp[e.site] >> 32 != lane || x.lastExecution[e.site] != e.execution;
        x.lastExecution[e.site] = e.execution;
        uint64_t key = e.execution; // a site every lane ran as often keeps its count
        if (x.siteEven[e.site]) {
            x.stamp[e.site] = stamp;
            if (fresh) ++epoch;
        } else {
            if (x.stamp[e.site] != stamp) // its first execution in this epoch
                x.stamp[e.site] = stamp, x.laneRuns[e.site] = 0;
            else if (fresh)
                ++x.laneRuns[e.site];
            key = epoch << 32 | x.laneRuns[e.site];
        }
        x.keys.push_back({e.site, key, uint32_t(i)});
    }
    std::sort(x.keys.begin(), x.keys.end());
    for (size_t k = 0, id = 0; k < x.keys.size(); ++k) {
        if (k > 0 && x.keys[k].site != x.keys[k - 1].site)
            id = 0;
        else if (k > 0 && x.keys[k].key != x.keys[k - 1].key)
            ++id;
        entries[x.keys[k].entry].execution = uint32_t(id);
    }
}

struct ReadOf {
    uint64_t element; // variable << 32 | index
    uint32_t position;
    uint32_t site;
};

// A global read of one workgroup: which modelled subgroup fetched which element at which site.
struct GroupRead {
    uint32_t site;
    uint32_t index;
    uint32_t subgroup;
    auto operator<=>(const GroupRead&) const = default;
};

class EfficiencyAnalyzer {
  public:
    EfficiencyAnalyzer(const Trace& t, const MemoryModel& m) : m_trace(t), m_model(m) {
        m_report.model = m;
        m_lanes = std::max<uint32_t>(1, m.lanes);
        for (uint32_t v = 0; v < t.variables.size(); ++v)
            m_owners.push_back(cellOwner(t, v)); // two views of one binding: one memory
    }

    EfficiencyReport run() {
        uint32_t per = m_trace.launch.invocationsPerGroup();
        uint64_t threads = m_trace.threads.size();
        m_report.threads = threads;
        for (uint64_t g = 0; per && g * per < threads; ++g) {
            uint64_t divergent = 0, atomics = 0;
            m_groupReads.clear();
            for (uint32_t s = 0; uint64_t(s) * m_lanes < per; ++s) {
                uint32_t lanes = std::min<uint32_t>(m_lanes, per - s * m_lanes);
                collect(g * per + uint64_t(s) * m_lanes, lanes, s, atomics);
                resync();
                requests(g, s, lanes, divergent);
            }
            refetches(g);
            if (divergent > m_report.mostDivergentRequests)
                m_report.mostDivergentRequests = divergent, m_report.mostDivergentWorkgroup = g;
            if (atomics > m_report.mostGlobalAtomics)
                m_report.mostGlobalAtomics = atomics, m_report.mostAtomicsWorkgroup = g;
        }
        std::sort(m_written.begin(), m_written.end());
        m_report.cellsWritten =
            uint64_t(std::unique(m_written.begin(), m_written.end()) - m_written.begin());
        lines();
        return std::move(m_report);
    }

  private:
    uint32_t siteOf(const TraceEvent& e) {
        uint64_t key = packedSite(e);
        if (key == m_lastKey) return m_lastSite;
        auto [it, fresh] =
            m_siteIndex.try_emplace(key, static_cast<uint32_t>(m_report.sites.size()));
        if (fresh) {
            SiteEfficiency s;
            s.site = {e.line, e.variable, e.kind};
            m_report.sites.push_back(std::move(s));
            m_extra.emplace_back();
            m_count.push_back(0);
        }
        m_lastKey = key;
        m_lastSite = it->second;
        return it->second;
    }
    bool shared(uint32_t variable) const { return m_trace.variables[variable].decl.shared; }

    // The accesses of one modelled subgroup, each with its execution number, and each thread's
    // repeated global reads.
    void collect(uint64_t first, uint32_t lanes, uint32_t subgroup, uint64_t& atomics) {
        m_entries.clear();
        for (uint32_t lane = 0; lane < lanes && first + lane < m_trace.threads.size(); ++lane) {
            m_touched.clear();
            m_reads.clear();
            const auto& events = m_trace.threads[first + lane];
            for (uint32_t pos = 0; pos < events.size(); ++pos) {
                const TraceEvent& e = events[pos];
                if (!isAccess(m_trace, e)) continue;
                uint32_t site = siteOf(e);
                if (m_count[site] == 0) m_touched.push_back(site);
                // The scalars of one vector access are one execution: a wider request.
                bool sameAccess = continuesVector(e) && m_count[site] > 0;
                uint32_t execution = sameAccess ? m_count[site] - 1 : m_count[site]++;
                m_entries.push_back({site, execution, lane, e.index});
                if (shared(e.variable)) {
                    m_report.sharedReads += e.kind == TraceEventKind::Read;
                    continue;
                }
                if (e.kind == TraceEventKind::Atomic) ++atomics;
                if (e.kind != TraceEventKind::Read) {
                    m_written.push_back((uint64_t(m_owners[e.variable]) << 32) | e.index);
                    ++m_report.globalWrites;
                }
                if (e.kind == TraceEventKind::Read) {
                    ++m_report.globalReads;
                    m_reads.push_back(
                        {(uint64_t(m_owners[e.variable]) << 32) | e.index, pos, site});
                    m_groupReads.push_back({site, e.index, subgroup});
                }
            }
            for (uint32_t site : m_touched)
                m_count[site] = 0;
            repeatedReads();
        }
    }

    void repeatedReads() {
        if (m_reads.size() < 2) return;
        std::sort(m_reads.begin(), m_reads.end(), [](const ReadOf& a, const ReadOf& b) {
            return a.element != b.element ? a.element < b.element : a.position < b.position;
        });
        uint32_t run = 1;
        for (size_t i = 1; i < m_reads.size(); ++i) {
            if (m_reads[i].element != m_reads[i - 1].element) {
                run = 1;
                continue;
            }
            ++run;
            ++m_report.sites[m_reads[i].site].repeatedReads;
            SiteExtra& x = m_extra[m_reads[i].site];
            if (run > x.mostReadsOfOne)
                x.mostReadsOfOne = run, x.mostReadElement = uint32_t(m_reads[i].element);
        }
    }

    // The workgroup's global reads of one element at one site by several of its subgroups.
    void refetches(uint64_t g) {
        std::sort(m_groupReads.begin(), m_groupReads.end());
        m_groupReads.erase(std::unique(m_groupReads.begin(), m_groupReads.end()),
                           m_groupReads.end());
        for (size_t i = 0; i < m_groupReads.size();) {
            size_t j = i + 1;
            while (j < m_groupReads.size() && m_groupReads[j].site == m_groupReads[i].site &&
                   m_groupReads[j].index == m_groupReads[i].index)
                ++j;
            uint32_t subgroups = uint32_t(j - i);
            if (subgroups > 1) {
                SiteEfficiency& s = m_report.sites[m_groupReads[i].site];
                s.workgroupRefetches += subgroups - 1;
                if (subgroups > s.mostSubgroupsOnOne)
                    s.mostSubgroupsOnOne = subgroups, s.mostFetchedElement = m_groupReads[i].index,
                    s.mostFetchedWorkgroup = g;
            }
            i = j;
        }
    }

    void resync() { resyncExecutions(m_entries, m_report.sites.size(), m_resync); }

    // Groups the subgroup's entries by (site, execution), lanes ascending: two stable counting
    // sorts (entries arrive lane by lane, each lane in program order), no comparison sort.
    void requests(uint64_t g, uint32_t s, uint32_t lanes, uint64_t& divergent) {
        countingSort(m_entries, m_grouped, m_report.sites.size(),
                     [](const Entry& e) { return e.site; });
        for (size_t i = 0; i < m_grouped.size();) {
            size_t j = i;
            uint32_t most = 0;
            while (j < m_grouped.size() && m_grouped[j].site == m_grouped[i].site)
                most = std::max(most, m_grouped[j++].execution);
            if (most > 0) { // some lane ran the site more than once: group by execution
                m_entries.assign(m_grouped.begin() + i, m_grouped.begin() + j);
                countingSort(m_entries, m_byExecution, size_t(most) + 1,
                             [](const Entry& e) { return e.execution; });
                std::copy(m_byExecution.begin(), m_byExecution.end(), m_grouped.begin() + i);
            }
            for (size_t a = i; a < j;) {
                size_t b = a;
                while (b < j && m_grouped[b].execution == m_grouped[a].execution)
                    ++b;
                request(g, s, lanes, a, b, divergent);
                a = b;
            }
            i = j;
        }
    }

    template <class Key>
    void countingSort(const std::vector<Entry>& in, std::vector<Entry>& out, size_t keys, Key key) {
        m_offsets.assign(keys + 1, 0);
        for (const Entry& e : in)
            ++m_offsets[key(e) + 1];
        for (size_t k = 1; k <= keys; ++k)
            m_offsets[k] += m_offsets[k - 1];
        out.resize(in.size());
        for (const Entry& e : in)
            out[m_offsets[key(e)]++] = e;
    }

    void request(uint64_t g, uint32_t s, uint32_t lanes, size_t from, size_t to,
                 uint64_t& divergent) {
        const Entry& head = m_grouped[from];
        SiteEfficiency& site = m_report.sites[head.site];
        SiteExtra& extra = m_extra[head.site];
        // Lanes arrive ascending; a lane that moved a vector has one entry per scalar.
        uint32_t active = 0;
        m_sorted.clear();
        m_requestLanes.clear();
        for (size_t k = from; k < to; ++k) {
            m_sorted.push_back(m_grouped[k].index);
            m_requestLanes.push_back(m_grouped[k].lane);
            active += k == from || m_grouped[k].lane != m_grouped[k - 1].lane;
        }
        m_indices.assign(m_sorted.begin(), m_sorted.end()); // in lane order, beside m_requestLanes
        std::sort(m_sorted.begin(), m_sorted.end());
        ++site.requests;
        site.activeLanes += active;
        site.subgroupLanes += lanes;
        bool split = active < lanes;
        uint32_t exampleFirst = 0, exampleLast = ~0u; // a wide shared request: its worst phase
        if (split) ++site.divergentRequests, ++divergent;
        double score = split ? 1.001 : 1;
        if (!shared(site.site.variable)) {
            Sectors sec = sectorsOf(m_model, m_sorted, laneSpan(m_requestLanes));
            site.sectors += sec.touched;
            site.neededSectors += sec.needed;
            double eff = sec.touched ? double(sec.needed) / double(sec.touched) : 1;
            site.worstEfficiency = std::min(site.worstEfficiency, eff);
            m_report.globalEfficiency = std::min(m_report.globalEfficiency, eff);
            score = std::max(score, eff > 0 ? 1 / eff : 1);
        } else {
            PhasedBanks w = phasedBanks(m_model, m_requestLanes, m_indices, m_phase, m_perBank);
            Banks b = w.banks;
            site.wavefronts += w.wavefronts;
            if (b.ways > site.worstWays) site.worstWays = b.ways, site.worstBank = b.bank;
            m_report.worstBankWays = std::max(m_report.worstBankWays, b.ways);
            score = std::max(score, double(b.ways));
            exampleFirst = w.firstLane, exampleLast = w.lastLane;
        }
        if (site.site.kind == TraceEventKind::Atomic) {
            uint32_t most = mostOnOneAddress(m_sorted);
            extra.atomicConflicts += most - 1;
            site.worstAtomicsPerAddress = std::max(site.worstAtomicsPerAddress, most);
            score = std::max(score, double(most));
        }
        if (score <= extra.exampleScore) return;
        extra.exampleScore = score;
        RequestExample& ex = site.worst;
        ex.workgroup = g;
        ex.subgroup = s;
        ex.execution = head.execution;
        ex.lanes.clear();
        ex.indices.clear();
        for (size_t k = from; k < to; ++k) {
            if (m_grouped[k].lane < exampleFirst || m_grouped[k].lane > exampleLast) continue;
            ex.lanes.push_back(m_grouped[k].lane);
            ex.indices.push_back(m_grouped[k].index);
        }
    }

    // --- Lines: each site's problems, the worst said as a sentence -------------------------

    struct Issue {
        CostKind cost = CostKind::None;
        double extra = 0;
        std::string badge, sentence;
    };

    Issue uncoalesced(const SiteEfficiency& s) const {
        Issue i;
        if (s.sectors <= s.neededSectors) return i;
        double ratio = worstSectorRatio(m_model, s);
        i.cost = ratio >= 4 ? CostKind::Severe : ratio >= 2 ? CostKind::Notable : CostKind::Minor;
        i.extra = double(s.sectors - s.neededSectors);
        i.badge = fixed1(ratio) + "x sectors";
        i.sentence = uncoalescedText(m_trace, m_model, s);
        return i;
    }

    Issue conflict(const SiteEfficiency& s) const {
        Issue i;
        if (s.worstWays <= 1) return i;
        i.cost = s.worstWays >= 8   ? CostKind::Severe
                 : s.worstWays >= 4 ? CostKind::Notable
                                    : CostKind::Minor;
        i.extra = double(s.wavefronts - s.requests);
        i.badge = std::to_string(s.worstWays) + "-way";
        i.sentence = conflictText(m_trace, m_model, s);
        return i;
    }

    Issue divergence(const SiteEfficiency& s) const {
        Issue i;
        if (!s.divergentRequests || !s.subgroupLanes) return i;
        double idle = 1 - double(s.activeLanes) / double(s.subgroupLanes);
        i.cost = idle >= 0.75  ? CostKind::Severe
                 : idle >= 0.5 ? CostKind::Notable
                               : CostKind::Minor;
        i.extra = double(s.subgroupLanes - s.activeLanes) / m_lanes;
        i.badge = std::to_string(idlePercent(s)) + "% idle";
        i.sentence = divergenceText(m_trace, s);
        return i;
    }

    Issue repeated(const SiteEfficiency& s, const SiteExtra& x) const {
        Issue i;
        if (!s.repeatedReads) return i;
        i.cost = CostKind::Minor;
        i.extra = double(s.repeatedReads) / m_lanes;
        i.badge = std::to_string(x.mostReadsOfOne) + "x re-read";
        i.sentence =
            "a thread reads " + traceCellName(m_trace, s.site.variable, x.mostReadElement) + " " +
            std::to_string(x.mostReadsOfOne) + " times (" + std::to_string(s.repeatedReads) +
            " reads at this line fetch an element their thread had already read): keep "
            "it in a variable";
        return i;
    }

    // A hint rather than a cost: a cache often serves the repeats, and a tile costs shared reads.
    Issue refetched(const SiteEfficiency& s) const {
        Issue i;
        if (s.mostSubgroupsOnOne < 2) return i;
        i.cost = CostKind::Minor;
        i.extra = double(s.workgroupRefetches);
        i.badge = std::to_string(s.mostSubgroupsOnOne) + "x per workgroup";
        i.sentence = traceCellName(m_trace, s.site.variable, s.mostFetchedElement) +
                     " is read by " + std::to_string(s.mostSubgroupsOnOne) + " subgroups of " +
                     workgroupName(m_trace.launch, s.mostFetchedWorkgroup) + " at this line (" +
                     std::to_string(s.workgroupRefetches) +
                     " reads here fetch an element another subgroup of the same workgroup "
                     "fetched too): a tile in shared memory would load each element once per "
                     "workgroup";
        return i;
    }

    Issue contention(const SiteEfficiency& s, const SiteExtra& x) const {
        Issue i;
        if (s.worstAtomicsPerAddress <= 1) return i;
        uint32_t n = s.worstAtomicsPerAddress;
        i.cost = n >= 16 ? CostKind::Severe : n >= 4 ? CostKind::Notable : CostKind::Minor;
        i.extra = double(x.atomicConflicts);
        i.badge = std::to_string(n) + " on 1 address";
        i.sentence = std::to_string(n) + " lanes of one request " + verbOf(s.site.kind) +
                     " the same address " +
                     traceCellName(m_trace, s.site.variable, busiestAddress(s.worst.indices)) +
                     " atomically: the updates run one after another";
        return i;
    }

    void lines() {
        std::unordered_map<uint32_t, size_t> at; // line -> index into m_report.lines
        for (size_t k = 0; k < m_report.sites.size(); ++k) {
            const SiteEfficiency& s = m_report.sites[k];
            const SiteExtra& x = m_extra[k];
            Issue issues[] = {uncoalesced(s), conflict(s),  divergence(s),
                              repeated(s, x), refetched(s), contention(s, x)};
            double extra = 0;
            const Issue* worst = nullptr;
            for (const Issue& i : issues) {
                if (i.cost == CostKind::None) continue;
                extra += i.extra;
                if (!worst || i.cost > worst->cost ||
                    (i.cost == worst->cost && i.extra > worst->extra))
                    worst = &i;
            }
            if (!worst) continue;
            auto [it, fresh] = at.try_emplace(s.site.line, m_report.lines.size());
            if (fresh) {
                LineEfficiency added;
                added.line = s.site.line;
                m_report.lines.push_back(std::move(added));
                m_lineWorst.push_back(0);
            }
            LineEfficiency& line = m_report.lines[it->second];
            line.sites.push_back(k);
            if (line.cost == CostKind::None || worst->cost > line.cost ||
                (worst->cost == line.cost && worst->extra > m_lineWorst[it->second])) {
                line.cost = worst->cost;
                line.badge = worst->badge;
                line.sentence = worst->sentence;
                m_lineWorst[it->second] = worst->extra;
            }
            line.extra += extra;
        }
        std::sort(m_report.lines.begin(), m_report.lines.end(),
                  [](const LineEfficiency& a, const LineEfficiency& b) {
                      if (a.cost != b.cost) return a.cost > b.cost;
                      if (a.extra != b.extra) return a.extra > b.extra;
                      return a.line < b.line;
                  });
    }

    const Trace& m_trace;
    const MemoryModel& m_model;
    uint32_t m_lanes = 32;
    std::vector<uint32_t> m_owners; // by variable: cellOwner
    EfficiencyReport m_report;
    std::vector<SiteExtra> m_extra; // per site
    std::vector<uint32_t> m_count;  // per site: executions by the current thread
    std::unordered_map<uint64_t, uint32_t> m_siteIndex;
    uint64_t m_lastKey = ~0ull;
    uint32_t m_lastSite = 0;
    std::vector<uint32_t> m_touched;     // sites the current thread executed
    std::vector<ReadOf> m_reads;         // the current thread's global reads
    std::vector<GroupRead> m_groupReads; // the current workgroup's global reads
    std::vector<uint64_t> m_written;     // buffer elements written (variable << 32 | index)
    std::vector<Entry> m_entries;        // the current subgroup's accesses, lane by lane
    ResyncScratch m_resync;
    std::vector<Entry> m_grouped; // ... grouped by site, then execution
    std::vector<Entry> m_byExecution;
    std::vector<size_t> m_offsets;
    std::vector<uint32_t> m_sorted, m_perBank, m_phase, m_requestLanes, m_indices;
    std::vector<double> m_lineWorst; // per line: the extra of the issue its sentence names
};

} // namespace

EfficiencyReport analyzeEfficiency(const Trace& trace, const MemoryModel& model) {
    return EfficiencyAnalyzer(trace, model).run();
}

std::optional<RequestExample> requestOf(const Trace& trace, const MemoryModel& model,
                                        uint64_t invocation, size_t eventIndex) {
    if (invocation >= trace.threads.size() || eventIndex >= trace.threads[invocation].size())
        return std::nullopt;
    if (!isAccess(trace, trace.threads[invocation][eventIndex])) return std::nullopt;
    uint32_t per = trace.launch.invocationsPerGroup(), lanes = std::max<uint32_t>(1, model.lanes);
    if (!per) return std::nullopt;
    uint32_t local = static_cast<uint32_t>(invocation % per);
    RequestExample out;
    out.workgroup = invocation / per;
    out.subgroup = local / lanes;
    uint64_t first = out.workgroup * per + uint64_t(out.subgroup) * lanes;
    uint32_t count = std::min<uint32_t>(lanes, per - out.subgroup * lanes);
    // The subgroup's entries numbered as the report numbers them (collect, then
    // resyncExecutions), so the request shown is the one the report judged.
    std::map<uint64_t, uint32_t> siteIds;
    std::vector<uint32_t> runs;
    std::vector<Entry> entries;
    size_t target = SIZE_MAX;
    for (uint32_t lane = 0; lane < count && first + lane < trace.threads.size(); ++lane) {
        std::fill(runs.begin(), runs.end(), 0);
        const auto& events = trace.threads[first + lane];
        for (size_t pos = 0; pos < events.size(); ++pos) {
            const TraceEvent& x = events[pos];
            if (!isAccess(trace, x)) continue;
            auto [it, fresh] = siteIds.try_emplace(packedSite(x), uint32_t(siteIds.size()));
            if (fresh) runs.push_back(0);
            uint32_t site = it->second;
            bool sameAccess = continuesVector(x) && runs[site] > 0;
            uint32_t execution = sameAccess ? runs[site] - 1 : runs[site]++;
            if (first + lane == invocation && pos == eventIndex) target = entries.size();
            entries.push_back({site, execution, lane, x.index});
        }
    }
    if (target == SIZE_MAX) return std::nullopt;
    ResyncScratch scratch;
    resyncExecutions(entries, siteIds.size(), scratch);
    const Entry want = entries[target];
    out.execution = want.execution;
    for (const Entry& e : entries)
        if (e.site == want.site && e.execution == want.execution) {
            out.lanes.push_back(e.lane);
            out.indices.push_back(e.index);
        }
    return out;
}

} // namespace vkp
