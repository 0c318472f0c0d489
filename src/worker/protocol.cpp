#include "worker/protocol.h"

#include <cstring>

#include "core/passes.h"

namespace vkp::worker {

namespace {

// A result that is the error: what follows its "ok = 0" word, to the end of the payload.
template <class T> bool decodeFailure(Decoder& d, Result<T>& out) {
    Error e;
    if (!decodeError(d, e)) return false;
    out = e;
    return d.done();
}

} // namespace

void encodeDeviceInfo(Encoder& e, const DeviceInfo& i) {
    e.u32(i.index);
    e.str(i.name);
    e.u32(static_cast<uint32_t>(i.type));
    e.str(i.apiVersion);
    e.str(i.driver);
    e.u32(i.usable);
    e.str(i.whyUnusable);
    e.u32(i.subgroupSize);
    e.u32(i.subgroupOperations);
    e.u32(i.shaderFeatures);
    e.u32(i.maxWorkgroupInvocations);
    for (uint32_t v : i.maxWorkgroupSize)
        e.u32(v);
    for (uint32_t v : i.maxWorkgroupCount)
        e.u32(v);
    e.u32(i.maxSharedMemoryBytes);
    e.u64(i.maxStorageBufferRange);
    e.f64(i.timestampPeriodNs);
    e.u32(i.robustBufferAccess);
    e.u32(i.pipelineStatistics);
    e.u32(i.lockstepSubgroups);
}

bool decodeDeviceInfo(Decoder& d, DeviceInfo& i) {
    uint32_t type, usable, robust, statistics, lockstep;
    double period;
    bool ok = d.u32(i.index) && d.str(i.name) && d.u32(type) && d.str(i.apiVersion) &&
              d.str(i.driver) && d.u32(usable) && d.str(i.whyUnusable) && d.u32(i.subgroupSize) &&
              d.u32(i.subgroupOperations) && d.u32(i.shaderFeatures) &&
              d.u32(i.maxWorkgroupInvocations);
    for (uint32_t& v : i.maxWorkgroupSize)
        ok = ok && d.u32(v);
    for (uint32_t& v : i.maxWorkgroupCount)
        ok = ok && d.u32(v);
    ok = ok && d.u32(i.maxSharedMemoryBytes) && d.u64(i.maxStorageBufferRange) && d.f64(period) &&
         d.u32(robust) && d.u32(statistics) && d.u32(lockstep);
    if (!ok || type > uint32_t(DeviceTypeKind::Other)) return false;
    i.type = static_cast<DeviceTypeKind>(type);
    i.usable = usable;
    i.timestampPeriodNs = static_cast<float>(period);
    i.robustBufferAccess = robust;
    i.pipelineStatistics = statistics;
    i.lockstepSubgroups = lockstep;
    return true;
}

namespace {

void encodeLaunch(Encoder& e, const LaunchSpec& l) {
    for (uint32_t v : l.workgroupSize)
        e.u32(v);
    for (uint32_t v : l.workgroups)
        e.u32(v);
    e.u32(static_cast<uint32_t>(l.constants.size()));
    for (const auto& [id, value] : l.constants) {
        e.u32(id);
        e.u32(value);
    }
}

bool decodeLaunch(Decoder& d, LaunchSpec& l) {
    bool ok = true;
    for (uint32_t& v : l.workgroupSize)
        ok = ok && d.u32(v);
    for (uint32_t& v : l.workgroups)
        ok = ok && d.u32(v);
    uint32_t n;
    if (!ok || !d.u32(n) || n > 4096) return false;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t id, value;
        if (!d.u32(id) || !d.u32(value)) return false;
        l.constants[id] = value;
    }
    return true;
}

void encodeDispatch(Encoder& e, const Dispatch& s) {
    e.u32(s.kernel);
    for (uint32_t v : s.workgroups)
        e.u32(v);
    e.words(s.push);
    e.u32(static_cast<uint32_t>(s.bind.size()));
    for (int b : s.bind)
        e.u32(static_cast<uint32_t>(b));
}

bool decodeDispatch(Decoder& d, Dispatch& s, uint32_t kernels, uint32_t buffers) {
    uint32_t n;
    if (!d.u32(s.kernel) || s.kernel >= kernels) return false;
    for (uint32_t& v : s.workgroups)
        if (!d.u32(v)) return false;
    if (!d.words(s.push) || s.push.size() > 64 || !d.u32(n) || (n != 0 && n != buffers))
        return false;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t b;
        if (!d.u32(b) || (b != UINT32_MAX && b >= buffers)) return false;
        s.bind.push_back(static_cast<int>(b));
    }
    return true;
}

} // namespace

void encodeJob(Encoder& e, const DeviceJob& job) {
    e.words(job.spirv);
    e.u32(static_cast<uint32_t>(job.moreKernels.size()));
    for (std::span<const uint32_t> k : job.moreKernels)
        e.words(k);
    e.u32(job.pushBytes);
    e.words(job.bindings);
    e.u32(static_cast<uint32_t>(job.otherSets.size()));
    for (const BindingSlot& s : job.otherSets) {
        e.u32(s.set);
        e.u32(s.binding);
    }
    e.u64(job.timeoutMs);
    e.u32(job.testCrash);
    e.u32(static_cast<uint32_t>(job.items.size()));
    for (const RunItem& item : job.items) {
        encodeLaunch(e, item.launch);
        e.u32(static_cast<uint32_t>(item.buffers.size()));
        for (const RunBuffer& b : item.buffers) {
            e.u32(b.binding);
            e.u32(b.set);
            e.u32(uint32_t(b.readBack) | uint32_t(b.packTrace) << 1);
            e.u64(b.sizeWords);
            e.words(b.initial);
        }
        e.u32(static_cast<uint32_t>(item.dispatches.size()));
        for (const Dispatch& st : item.dispatches)
            encodeDispatch(e, st);
    }
    e.u32(static_cast<uint32_t>(job.prebuild.size()));
    for (const LaunchSpec& l : job.prebuild)
        encodeLaunch(e, l);
}

static_assert(32 + kMaxDispatchesPerCase <= kMaxItemBuffers &&
              kMaxDispatchesPerCase <= kMaxItemDispatches);

bool decodeJob(Decoder& d, OwnedJob& out) {
    uint32_t slots, crash, items, more;
    if (!d.words(out.spirv) || !d.u32(more) || more > 64) return false;
    out.moreKernels.resize(more);
    for (auto& k : out.moreKernels)
        if (!d.words(k)) return false;
    if (!d.u32(out.job.pushBytes) || out.job.pushBytes > 256) return false;
    if (!d.words(out.job.bindings) || !d.u32(slots) || slots > 64) return false;
    for (uint32_t k = 0; k < slots; ++k) {
        BindingSlot s;
        if (!d.u32(s.set) || !d.u32(s.binding)) return false;
        out.job.otherSets.push_back(s);
    }
    if (!d.u64(out.job.timeoutMs) || !d.u32(crash) || !d.u32(items) || items > 1u << 16)
        return false;
    out.job.testCrash = crash;
    out.job.spirv = out.spirv;
    for (const auto& k : out.moreKernels)
        out.job.moreKernels.push_back(k);
    std::vector<std::vector<size_t>> bufferIndex(items);
    for (uint32_t i = 0; i < items; ++i) {
        RunItem item;
        uint32_t n;
        if (!decodeLaunch(d, item.launch) || !d.u32(n) || n > kMaxItemBuffers) return false;
        for (uint32_t k = 0; k < n; ++k) {
            RunBuffer b;
            uint32_t readBack;
            std::vector<uint32_t> words;
            if (!d.u32(b.binding) || !d.u32(b.set) || !d.u32(readBack) || readBack > 3 ||
                !d.u64(b.sizeWords) || !d.words(words))
                return false;
            b.readBack = readBack & 1;
            b.packTrace = readBack & 2;
            bufferIndex[i].push_back(out.buffers.size());
            out.buffers.push_back(std::move(words));
            item.buffers.push_back(b);
        }
        uint32_t steps;
        if (!d.u32(steps) || steps > kMaxItemDispatches) return false;
        item.dispatches.resize(steps);
        for (Dispatch& st : item.dispatches)
            if (!decodeDispatch(d, st, more + 1, n)) return false;
        out.job.items.push_back(std::move(item));
    }
    // Point the spans at the owned words only now: the vector of buffers no longer moves.
    for (uint32_t i = 0; i < items; ++i)
        for (size_t k = 0; k < bufferIndex[i].size(); ++k)
            out.job.items[i].buffers[k].initial = out.buffers[bufferIndex[i][k]];
    uint32_t later;
    if (!d.u32(later) || later > 1u << 16) return false;
    out.job.prebuild.resize(later);
    for (LaunchSpec& l : out.job.prebuild)
        if (!decodeLaunch(d, l)) return false;
    return d.done();
}

void encodeJobResult(Encoder& e, const Result<DeviceJobResult>& r) {
    e.u32(r.ok());
    if (!r.ok()) return encodeError(e, r.error());
    e.f64(r->pipelineMs);
    e.u64(r->pipelinesBuilt);
    e.f64(r->runMs);
    e.u32(static_cast<uint32_t>(r->items.size()));
    for (const Result<RunOutput>& item : r->items) {
        e.u32(item.ok());
        if (!item.ok()) {
            encodeError(e, item.error());
            continue;
        }
        e.f64(item->gpuMs);
        e.u32(static_cast<uint32_t>(item->buffers.size()));
        for (const auto& b : item->buffers)
            e.words(b);
    }
}

bool decodeJobResult(Decoder& d, Result<DeviceJobResult>& out) {
    uint32_t ok;
    if (!d.u32(ok)) return false;
    if (!ok) return decodeFailure(d, out);
    DeviceJobResult r;
    uint32_t items;
    uint64_t built;
    if (!d.f64(r.pipelineMs) || !d.u64(built) || !d.f64(r.runMs) || !d.u32(items) ||
        items > 1u << 16)
        return false;
    r.pipelinesBuilt = static_cast<size_t>(built);
    for (uint32_t i = 0; i < items; ++i) {
        uint32_t itemOk, n;
        if (!d.u32(itemOk)) return false;
        if (!itemOk) {
            Error e;
            if (!decodeError(d, e)) return false;
            r.items.push_back(e);
            continue;
        }
        RunOutput o;
        if (!d.f64(o.gpuMs) || !d.u32(n) || n > kMaxItemBuffers) return false;
        o.buffers.resize(n);
        for (auto& b : o.buffers)
            if (!d.words(b)) return false;
        r.items.push_back(std::move(o));
    }
    out = std::move(r);
    return d.done();
}

namespace {

void encodeDoubles(Encoder& e, const std::vector<double>& v) {
    e.u64(v.size());
    for (double x : v)
        e.f64(x);
}

bool decodeDoubles(Decoder& d, std::vector<double>& v, uint64_t max) {
    uint64_t n;
    if (!d.u64(n) || n > max) return false;
    v.resize(n);
    for (double& x : v)
        if (!d.f64(x)) return false;
    return true;
}

constexpr uint32_t kMaxBenchItems =
    1u << 16; // kernels, buffers, steps, repetitions: far above any real one

void encodeStat(Encoder& e, const PipelineStat& st) {
    e.str(st.name);
    e.str(st.value);
    e.u32(st.number.has_value());
    e.f64(st.number.value_or(0));
    e.str(st.description);
}

bool decodeStat(Decoder& d, PipelineStat& st) {
    uint32_t has;
    double number;
    if (!d.str(st.name) || !d.str(st.value) || !d.u32(has) || !d.f64(number) ||
        !d.str(st.description))
        return false;
    if (has) st.number = number;
    return true;
}

} // namespace

void encodeBenchJob(Encoder& e, const BenchJob& job) {
    size_t bytes = 4096;
    for (std::span<const uint32_t> k : job.kernels)
        bytes += k.size_bytes() + 8;
    for (const BenchBuffer& b : job.buffers)
        bytes += b.initial.size_bytes() + 64;
    e.reserve(bytes + job.dispatches.size() * 128);
    e.u32(static_cast<uint32_t>(job.kernels.size()));
    for (std::span<const uint32_t> k : job.kernels)
        e.words(k);
    e.u32(job.pushBytes);
    encodeLaunch(e, job.launch);
    e.u32(static_cast<uint32_t>(job.buffers.size()));
    for (const BenchBuffer& b : job.buffers) {
        e.u32(b.binding);
        e.u64(b.words);
        e.u32(b.zeroEachRep);
        e.u32(b.restoreEachRep);
        e.u32(b.readBack);
        e.words(b.initial);
    }
    e.u32(static_cast<uint32_t>(job.dispatches.size()));
    for (const Dispatch& st : job.dispatches)
        encodeDispatch(e, st);
    e.u32(static_cast<uint32_t>(job.warmups));
    e.f64(job.warmupMs);
    e.u32(static_cast<uint32_t>(job.reps));
    e.u64(job.timeoutMs);
}

bool decodeBenchJob(Decoder& d, OwnedBenchJob& out) {
    uint32_t kernels, buffers, steps, warmups, reps;
    if (!d.u32(kernels) || kernels == 0 || kernels > 64) return false;
    out.kernels.resize(kernels);
    for (auto& k : out.kernels)
        if (!d.words(k)) return false;
    if (!d.u32(out.job.pushBytes) || out.job.pushBytes > 256 || !decodeLaunch(d, out.job.launch))
        return false;
    if (!d.u32(buffers) || buffers > 1024) return false;
    for (uint32_t i = 0; i < buffers; ++i) {
        BenchBuffer b;
        uint32_t zero, restore, readBack;
        if (!d.u32(b.binding) || !d.u64(b.words) || !d.u32(zero) || !d.u32(restore) ||
            !d.u32(readBack) || !d.wordsView(b.initial))
            return false;
        if (!b.initial.empty() && b.initial.size() != b.words) return false;
        b.zeroEachRep = zero;
        b.restoreEachRep = restore;
        b.readBack = readBack;
        out.job.buffers.push_back(b);
    }
    if (!d.u32(steps) || steps > kMaxBenchItems) return false;
    out.job.dispatches.resize(steps);
    for (Dispatch& st : out.job.dispatches)
        if (!decodeDispatch(d, st, kernels, buffers)) return false;
    if (!d.u32(warmups) || !d.f64(out.job.warmupMs) || !d.u32(reps) || !d.u64(out.job.timeoutMs))
        return false;
    if (warmups > kMaxBenchItems || reps == 0 || reps > kMaxBenchItems) return false;
    out.job.warmups = static_cast<int>(warmups);
    out.job.reps = static_cast<int>(reps);
    for (const auto& k : out.kernels)
        out.job.kernels.push_back(k);
    return d.done();
}

void encodeBenchRun(Encoder& e, const Result<BenchRun>& r) {
    e.u32(r.ok());
    if (!r.ok()) return encodeError(e, r.error());
    size_t bytes = 4096 + r->repetitionMs.size() * 8;
    for (const auto& v : r->perDispatchMs)
        bytes += v.size() * 8 + 8;
    for (const auto& b : r->readBack)
        bytes += b.size() * 4 + 8;
    e.reserve(bytes);
    encodeDoubles(e, r->repetitionMs);
    e.u32(static_cast<uint32_t>(r->perDispatchMs.size()));
    for (const auto& v : r->perDispatchMs)
        encodeDoubles(e, v);
    e.u32(static_cast<uint32_t>(r->readBack.size()));
    for (const auto& b : r->readBack)
        e.words(b);
    e.u32(static_cast<uint32_t>(r->kernelStats.size()));
    for (const auto& stats : r->kernelStats) {
        e.u32(static_cast<uint32_t>(stats.size()));
        for (const PipelineStat& st : stats)
            encodeStat(e, st);
    }
}

bool decodeBenchRun(Decoder& d, Result<BenchRun>& out) {
    uint32_t ok, steps, buffers, kernels;
    if (!d.u32(ok)) return false;
    if (!ok) return decodeFailure(d, out);
    BenchRun r;
    if (!decodeDoubles(d, r.repetitionMs, kMaxBenchItems) || !d.u32(steps) ||
        steps > kMaxBenchItems)
        return false;
    r.perDispatchMs.resize(steps);
    for (auto& v : r.perDispatchMs)
        if (!decodeDoubles(d, v, kMaxBenchItems)) return false;
    if (!d.u32(buffers) || buffers > 1024) return false;
    r.readBack.resize(buffers);
    for (auto& b : r.readBack)
        if (!d.words(b)) return false;
    if (!d.u32(kernels) || kernels > 64) return false;
    r.kernelStats.resize(kernels);
    for (auto& stats : r.kernelStats) {
        uint32_t n;
        if (!d.u32(n) || n > 1024) return false;
        stats.resize(n);
        for (PipelineStat& st : stats)
            if (!decodeStat(d, st)) return false;
    }
    out = std::move(r);
    return d.done();
}

void encodeCopyJob(Encoder& e, const CopyJob& job) {
    e.u64(job.bytes);
    e.u32(static_cast<uint32_t>(job.reps));
    e.words(job.copyShader);
    e.f64(job.warmupMs);
}

bool decodeCopyJob(Decoder& d, OwnedCopyJob& out) {
    uint32_t reps;
    if (!d.u64(out.job.bytes) || !d.u32(reps) || reps == 0 || reps > kMaxBenchItems) return false;
    if (!d.words(out.copyShader) || !d.f64(out.job.warmupMs)) return false;
    out.job.reps = static_cast<int>(reps);
    out.job.copyShader = out.copyShader;
    return d.done();
}

void encodeCopyBandwidth(Encoder& e, const Result<CopyBandwidth>& r) {
    e.u32(r.ok());
    if (!r.ok()) return encodeError(e, r.error());
    encodeDoubles(e, r->transferMs);
    encodeDoubles(e, r->shaderMs);
}

bool decodeCopyBandwidth(Decoder& d, Result<CopyBandwidth>& out) {
    uint32_t ok;
    if (!d.u32(ok)) return false;
    if (!ok) return decodeFailure(d, out);
    CopyBandwidth c;
    if (!decodeDoubles(d, c.transferMs, kMaxBenchItems) ||
        !decodeDoubles(d, c.shaderMs, kMaxBenchItems))
        return false;
    out = std::move(c);
    return d.done();
}

} // namespace vkp::worker
