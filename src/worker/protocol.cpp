#include "worker/protocol.h"

#include <type_traits>

#include "base/wire_describe.h"
#include "device/device_wire.h"
#include "puzzle/passes.h"

namespace vkp::worker {

namespace {

// What decoders accept of a list, far above any real one.
constexpr uint32_t kMaxKernels = 64;     // one module per kernel of a multi-pass puzzle
constexpr uint32_t kMaxPushBytes = 256;  // Vulkan's push-constant ranges are at most this
constexpr uint32_t kMaxConstants = 4096; // specialization constants of a launch
constexpr uint32_t kMaxBatch = 1u << 16; // items, launches, repetitions, results
constexpr uint32_t kMaxBenchBuffers = 1024;
constexpr uint32_t kMaxStats = 1024; // statistics of one pipeline

static_assert(32 + kMaxDispatchesPerCase <= kMaxItemBuffers &&
              kMaxDispatchesPerCase <= kMaxItemDispatches);

// M is T when reading and const T when writing.
template <class Io, class M> bool describeLaunch(Io& io, M& l) {
    bool ok = true;
    for (auto& v : l.workgroupSize)
        ok = ok && io.num(v);
    for (auto& v : l.workgroups)
        ok = ok && io.num(v);
    if (!ok) return false;
    // A map travels as its size and (id, value) pairs.
    if constexpr (Io::kReading) {
        std::vector<std::pair<uint32_t, uint32_t>> pairs;
        if (!io.list(pairs, kMaxConstants,
                     [&](auto& p) { return io.num(p.first) && io.num(p.second); }))
            return false;
        l.constants.insert(pairs.begin(), pairs.end());
        return true;
    } else {
        return io.list(l.constants, kMaxConstants,
                       [&](const auto& p) { return io.num(p.first) && io.num(p.second); });
    }
}

// `kernels` and `buffers`: how many the message has, which the dispatch's indices must be under.
template <class Io, class M>
bool describeDispatch(Io& io, M& s, uint32_t kernels, uint32_t buffers) {
    if (!io.num(s.kernel) || !io.check(s.kernel < kernels)) return false;
    for (auto& v : s.workgroups)
        if (!io.num(v)) return false;
    return io.list(s.push, kMaxPushBytes / 4, [&](auto& w) {
        return io.num(w);
    }) && io.list(s.bind, buffers, [&](auto& b) {
        return io.num(b) && io.check(b >= -1 && (b < 0 || uint32_t(b) < buffers));
    }) && io.check(s.bind.empty() || s.bind.size() == buffers); // every buffer, or none
}

template <class Io, class M> bool describeRunBuffer(Io& io, M& b, WordStore& store) {
    return io.num(b.binding) && io.num(b.set) && io.num(b.readBack) && io.num(b.packTrace) &&
           io.num(b.sizeWords) && io.ownWords(b.initial, store);
}

template <class Io, class M> bool describeJob(Io& io, M& job, WordStore& store) {
    auto kernel = [&](auto& k) { return io.ownWords(k, store); };
    uint32_t kernels = 0;
    bool ok = kernel(job.spirv) && io.list(job.moreKernels, kMaxKernels - 1, kernel) &&
              io.num(job.pushBytes) && io.check(job.pushBytes <= kMaxPushBytes) &&
              io.words(job.bindings) &&
              io.list(job.otherSets, kMaxKernels,
                      [&](auto& s) { return io.num(s.set) && io.num(s.binding); }) &&
              io.num(job.timeoutMs) && io.num(job.pipelineTimeoutMs) &&
              io.num(job.compileInCaseBudget) && io.num(job.testCrash);
    if (!ok) return false;
    kernels = static_cast<uint32_t>(job.moreKernels.size() + 1);
    return io.list(job.items, kMaxBatch, [&](auto& item) {
        return describeLaunch(io, item.launch) &&
               io.list(item.buffers, kMaxItemBuffers,
                       [&](auto& b) { return describeRunBuffer(io, b, store); }) &&
               io.list(item.dispatches, kMaxItemDispatches, [&](auto& d) {
                   return describeDispatch(io, d, kernels,
                                           static_cast<uint32_t>(item.buffers.size()));
               });
    }) && io.list(job.prebuild, kMaxBatch, [&](auto& l) { return describeLaunch(io, l); });
}

template <class Io, class M> bool describeJobResult(Io& io, M& r) {
    return io.num(r.pipelineMs) && io.num(r.pipelinesBuilt) && io.num(r.runMs) &&
           io.list(r.items, kMaxBatch, [&](auto& item) {
               return describeResult(io, item, [&](auto& o) {
                   return io.num(o.gpuMs) &&
                          io.list(o.buffers, kMaxItemBuffers, [&](auto& b) { return io.words(b); });
               });
           });
}

template <class Io, class V> bool describeDoubles(Io& io, V& v) {
    return io.list(v, kMaxBatch, [&](auto& x) { return io.num(x); });
}

template <class Io, class M> bool describeBenchJob(Io& io, M& job, WordStore& store) {
    bool ok = io.list(job.kernels, kMaxKernels, [&](auto& k) { return io.ownWords(k, store); }) &&
              io.check(!job.kernels.empty()) && io.num(job.pushBytes) &&
              io.check(job.pushBytes <= kMaxPushBytes) && describeLaunch(io, job.launch) &&
              io.list(job.buffers, kMaxBenchBuffers, [&](auto& b) {
                  return io.num(b.binding) && io.num(b.words) && io.num(b.zeroEachRep) &&
                         io.num(b.restoreEachRep) && io.num(b.readBack) &&
                         io.viewWords(b.initial) &&
                         io.check(b.initial.empty() || b.initial.size() == b.words);
              });
    if (!ok) return false;
    auto kernels = static_cast<uint32_t>(job.kernels.size());
    auto buffers = static_cast<uint32_t>(job.buffers.size());
    return io.list(job.dispatches, kMaxBatch,
                   [&](auto& d) { return describeDispatch(io, d, kernels, buffers); }) &&
           io.num(job.warmups) && io.check(job.warmups >= 0 && job.warmups <= int(kMaxBatch)) &&
           io.num(job.warmupMs) && io.num(job.reps) &&
           io.check(job.reps > 0 && job.reps <= int(kMaxBatch)) && io.num(job.timeoutMs);
}

template <class Io, class M> bool describeBenchRun(Io& io, M& r) {
    return describeDoubles(io, r.repetitionMs) &&
           io.list(r.perDispatchMs, kMaxBatch, [&](auto& v) { return describeDoubles(io, v); }) &&
           io.list(r.readBack, kMaxBenchBuffers, [&](auto& b) { return io.words(b); }) &&
           io.list(r.kernelStats, kMaxKernels, [&](auto& stats) {
               return io.list(stats, kMaxStats, [&](auto& st) {
                   bool has = st.number.has_value();
                   double number = st.number.value_or(0);
                   if (!(io.str(st.name) && io.str(st.value) && io.num(has) && io.num(number) &&
                         io.str(st.description)))
                       return false;
                   if constexpr (Io::kReading)
                       if (has) st.number = number;
                   return true;
               });
           });
}

template <class Io, class M> bool describeCopyJob(Io& io, M& job, WordStore& store) {
    return io.num(job.bytes) && io.num(job.reps) &&
           io.check(job.reps > 0 && job.reps <= int(kMaxBatch)) &&
           io.ownWords(job.copyShader, store) && io.num(job.warmupMs);
}

template <class Io, class M> bool describeCopyBandwidth(Io& io, M& c) {
    return describeDoubles(io, c.transferMs) && describeDoubles(io, c.shaderMs);
}

// A Result message whose value `describeValue` describes.
template <class D> auto resultOf(D describeValue) {
    return [=](auto& io, auto& r) {
        return describeResult(io, r, [&](auto& v) { return describeValue(io, v); });
    };
}
const auto kJobResult = resultOf([](auto& io, auto& v) { return describeJobResult(io, v); });
const auto kBenchRun = resultOf([](auto& io, auto& v) { return describeBenchRun(io, v); });
const auto kCopyBandwidth =
    resultOf([](auto& io, auto& v) { return describeCopyBandwidth(io, v); });

} // namespace

void encodeDeviceInfo(Encoder& e, const DeviceInfo& info) {
    encodeWith(e, info, [](auto& io, auto& i) { return describeDeviceInfo(io, i); });
}

bool decodeDeviceInfo(Decoder& d, DeviceInfo& info) {
    WireReader r(d); // a Hello frame: the device comes first, more may follow
    return describeDeviceInfo(r, info);
}

void encodeJob(Encoder& e, const DeviceJob& job) {
    WordStore none;
    encodeWith(e, job, [&](auto& io, auto& j) { return describeJob(io, j, none); });
}

bool decodeJob(Decoder& d, OwnedJob& out) {
    return decodeWith(d, out.job, [&](auto& io, auto& j) { return describeJob(io, j, out.words); });
}

void encodeJobResult(Encoder& e, const Result<DeviceJobResult>& result) {
    encodeWith(e, result, kJobResult);
}

bool decodeJobResult(Decoder& d, Result<DeviceJobResult>& result) {
    return decodeWith(d, result, kJobResult);
}

void encodeBenchJob(Encoder& e, const BenchJob& job) {
    size_t bytes = 4096 + job.dispatches.size() * 128;
    for (std::span<const uint32_t> k : job.kernels)
        bytes += k.size_bytes() + 8;
    for (const BenchBuffer& b : job.buffers)
        bytes += b.initial.size_bytes() + 64;
    e.reserve(bytes);
    WordStore none;
    encodeWith(e, job, [&](auto& io, auto& j) { return describeBenchJob(io, j, none); });
}

bool decodeBenchJob(Decoder& d, OwnedBenchJob& out) {
    return decodeWith(d, out.job,
                      [&](auto& io, auto& j) { return describeBenchJob(io, j, out.words); });
}

void encodeBenchRun(Encoder& e, const Result<BenchRun>& run) {
    if (run) {
        size_t bytes = 4096 + run->repetitionMs.size() * 8;
        for (const auto& v : run->perDispatchMs)
            bytes += v.size() * 8 + 8;
        for (const auto& b : run->readBack)
            bytes += b.size() * 4 + 8;
        e.reserve(bytes);
    }
    encodeWith(e, run, kBenchRun);
}

bool decodeBenchRun(Decoder& d, Result<BenchRun>& run) {
    return decodeWith(d, run, kBenchRun);
}

void encodeCopyJob(Encoder& e, const CopyJob& job) {
    WordStore none;
    encodeWith(e, job, [&](auto& io, auto& j) { return describeCopyJob(io, j, none); });
}

bool decodeCopyJob(Decoder& d, OwnedCopyJob& out) {
    return decodeWith(d, out.job,
                      [&](auto& io, auto& j) { return describeCopyJob(io, j, out.words); });
}

void encodeCopyBandwidth(Encoder& e, const Result<CopyBandwidth>& copy) {
    encodeWith(e, copy, kCopyBandwidth);
}

bool decodeCopyBandwidth(Decoder& d, Result<CopyBandwidth>& copy) {
    return decodeWith(d, copy, kCopyBandwidth);
}

} // namespace vkp::worker
