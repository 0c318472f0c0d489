#include "cli/json_report.h"

#include "check/subgroup_sizes.h"
#include "cli/trace_report.h"

namespace vkp::cli {
namespace {

using nlohmann::json;

json dims(const std::array<uint32_t, 3>& d) {
    return json::array({d[0], d[1], d[2]});
}

json values(const BufferData& b) {
    json a = json::array();
    for (uint64_t i = 0; i < b.words.size(); ++i) {
        if (b.type == ElementKind::Float)
            a.push_back(b.get(i));
        else
            a.push_back(static_cast<int64_t>(b.get(i)));
    }
    return a;
}

json bufferJson(const BufferData& b) {
    return {{"shape", b.shape.dims}, {"values", values(b)}};
}

json diagnosticJson(const Diagnostic& d) {
    return {{"file", d.file},
            {"line", d.line},
            {"column", d.column},
            {"severity", severityName(d.severity)},
            {"message", d.message}};
}

json caseJson(const Puzzle& p, const CaseOutcome& c, bool withBuffers) {
    const TestCase& tc = p.cases[c.index];
    // A hidden case's outcome (c.hidden) has no data left; its name and launch are left out too.
    json j = {{"case", c.index + 1},
              {"name", c.hidden ? json(nullptr) : json(tc.name)},
              {"hidden", tc.hidden},
              {"points", tc.points},
              {"pass", c.pass},
              {"inconclusive", c.inconclusive},
              {"workgroup_size", c.hidden ? json(nullptr) : dims(tc.workgroupSize)},
              {"workgroups", c.hidden ? json(nullptr) : dims(tc.workgroups)},
              {"gpu_ms", c.gpuMs >= 0 ? json(c.gpuMs) : json(nullptr)},
              {"error", c.error ? errorJson(*c.error) : json(nullptr)},
              {"outputs_match", c.outputsMatch},
              {"traced", c.analysis != nullptr},
              {"own", tc.own}};
    json findings = json::array();
    if (c.analysis && c.dispatches.empty())
        for (const Finding& f : c.analysis->findings)
            findings.push_back(findingJson(*c.trace, f));
    for (size_t k = 0; k < c.dispatches.size(); ++k)
        for (const Finding& f : c.dispatches[k].analysis->findings) {
            json one = findingJson(*c.dispatches[k].trace, f);
            one["dispatch"] = k + 1; // multi-pass: which dispatch of the case
            one["dispatch_label"] = c.dispatches[k].label;
            one["pass"] = c.dispatches[k].label; // version 1's name for dispatch_label
            findings.push_back(std::move(one));
        }
    for (const Finding& f : c.runFindings)
        findings.push_back(findingJson(Trace{}, f)); // untraced: no variables to name
    j["findings"] = findings;
    j["notes"] = c.notes;
    json schedules = json::array();
    for (size_t k = 0; k < c.schedules.size(); ++k) {
        const ScheduleReport& s = c.schedules[k];
        static const char* kOutcomes[] = {"not_reached", "others_finished", "others_waiting",
                                          "nothing_else_ran", "successors_finished"};
        static const char* kViews[] = {"none", "frozen", "given_up"};
        schedules.push_back({{"hold", s.afterWrite ? "after_first_write" : "before_first_write"},
                             {"buffer", s.buffer},
                             {"outcome", kOutcomes[std::min<uint32_t>(uint32_t(s.outcome), 4)]},
                             {"forced", s.forced()},
                             {"held_workgroup", s.heldWorkgroup},
                             {"place", s.place},
                             {"index", s.index},
                             {"polls", s.spins},
                             {"view", kViews[std::min<uint32_t>(uint32_t(s.view), 2)]},
                             {"view_reads", s.viewReads},
                             {"text", k < c.scheduleTexts.size() ? c.scheduleTexts[k] : ""}});
    }
    j["schedules"] = schedules;
    json outs = json::array();
    for (const BufferOutcome& o : c.outputs) {
        json mism = json::array();
        for (const Mismatch& m : o.comparison.mismatches)
            mism.push_back({{"index", m.index}, {"expected", m.expected}, {"actual", m.actual}});
        json out = {{"buffer", p.buffers[o.buffer].name},
                    {"pass", o.comparison.pass},
                    {"mismatch_count", o.comparison.mismatchCount},
                    {"tolerance", o.comparison.tolerance},
                    {"worst_error", o.comparison.worstError},
                    {"worst_index", o.comparison.worstIndex},
                    {"mismatches", mism},
                    {"checked", o.checked}};
        if (c.hidden) // a count or a cell would hint at the size
            out["mismatch_count"] = out["worst_error"] = out["worst_index"] = nullptr;
        if (withBuffers && !c.hidden) {
            out["expected"] = o.checked ? bufferJson(o.expected) : json(nullptr);
            out["actual"] = bufferJson(o.actual);
        }
        outs.push_back(out);
    }
    j["outputs"] = outs;
    if (withBuffers && !c.hidden) {
        json in = json::object();
        for (size_t b = 0; b < p.buffers.size(); ++b)
            if (p.buffers[b].role != RoleKind::Output && b < c.inputs.size())
                in[p.buffers[b].name] = bufferJson(c.inputs[b]);
        j["inputs"] = in;
    }
    return j;
}

// Why a check without a device error stopped before its cases: its first error diagnostic, as
// an error of kind compile (the kernel does not compile) or interface; null when nothing did.
json stoppedJson(const CheckReport& r) {
    for (const Diagnostic& d : r.diagnostics) {
        if (d.severity != SeverityKind::Error) continue;
        ErrorKind kind = r.compiled() ? ErrorKind::Interface : ErrorKind::Compile;
        std::string what = r.compiled() ? "" : "the kernel does not compile: ";
        return errorJson(Error{kind, what + d.message, {d.file, d.line, d.column}});
    }
    return nullptr;
}

} // namespace

json deviceJson(const DeviceInfo& d) {
    return {{"index", d.index},
            {"name", d.name},
            {"type", deviceTypeName(d.type)},
            {"api_version", d.apiVersion},
            {"driver", d.driver},
            {"usable", d.usable},
            {"why_unusable", d.whyUnusable},
            {"subgroup_size", d.subgroupSize},
            {"subgroup_operations", subgroupFeatureList(d.subgroupOperations)},
            {"shader_features", shaderFeatureList(d.shaderFeatures)},
            {"max_workgroup_invocations", d.maxWorkgroupInvocations},
            {"max_workgroup_size", dims(d.maxWorkgroupSize)},
            {"max_workgroup_count", dims(d.maxWorkgroupCount)},
            {"max_shared_memory_bytes", d.maxSharedMemoryBytes},
            {"max_storage_buffer_range", d.maxStorageBufferRange},
            {"timestamp_period_ns", d.timestampPeriodNs},
            {"robust_buffer_access", d.robustBufferAccess},
            {"pipeline_statistics", d.pipelineStatistics}};
}

json errorJson(const Error& e) {
    return {{"kind", errorKindName(e.kind)},
            {"message", e.message},
            {"file", e.where.file},
            {"line", e.where.line},
            {"column", e.where.column}};
}

namespace {

// The runs beside the check that are not subgroup sizes or fresh inputs: atomics in reverse lane
// order, and the puzzle's searches.
void addRunsBeside(const CheckReport& r, json& j) {
    if (r.reversed) {
        json failures = json::array();
        for (const CaseFailure& f : r.reversed->failures)
            failures.push_back({{"case", f.index + 1}, {"detail", f.detail}});
        j["reversed_atomic_order"] = {
            {"pass", r.reversed->pass()},
            {"cases_run", r.reversed->casesRun},
            {"failures", failures},
            {"error", r.reversed->error ? errorJson(*r.reversed->error) : json(nullptr)}};
    }
    if (r.search) {
        json found = nullptr;
        if (const auto& f = r.search->found) {
            json inputs = json::object();
            for (const auto& [name, values] : f->inputs)
                inputs[name] = values;
            found = {{"search", f->search + 1},
                     {"case", f->templateCase + 1},
                     {"n", f->n},
                     {"workgroup_size", f->workgroupSize},
                     {"workgroups", f->workgroups},
                     {"detail", f->detail},
                     {"found_at", {{"n", f->foundN}, {"workgroup_size", f->foundWorkgroupSize}}},
                     {"shrink_runs", f->shrinkRuns},
                     {"inputs", inputs}};
        }
        j["case_search"] = {
            {"seed", r.search->seed},
            {"pass", r.search->pass()},
            {"cases_run", r.search->casesRun},
            {"found", found},
            {"error", r.search->error ? errorJson(*r.search->error) : json(nullptr)}};
    }
}

} // namespace

json checkJson(const Puzzle& p, const CheckReport& r, bool withBuffers, bool withTiming) {
    json diags = json::array();
    for (const Diagnostic& d : r.diagnostics)
        diags.push_back(diagnosticJson(d));
    json cases = json::array();
    for (const CaseOutcome& c : r.cases)
        cases.push_back(caseJson(p, c, withBuffers));
    size_t errors = 0;
    for (const Diagnostic& d : r.diagnostics)
        errors += d.severity == SeverityKind::Error ? 1 : 0;
    json j = {{"puzzle", p.slug},
              {"number", p.number},
              {"kernel", r.kernelFile},
              {"pass", r.allPass()},
              {"compiled", r.compiled()},
              {"stage", stageName(r.reached)},
              {"cases_passed", r.passCount()},
              // The cases that ran; when none could (a compile error), the puzzle's cases.
              {"cases_total", r.cases.empty() ? p.cases.size() : r.cases.size()},
              {"error_count", errors},
              {"diagnostics", diags},
              {"error", r.error ? errorJson(*r.error) : stoppedJson(r)},
              {"cases", cases}};
    if (r.lanes) j["lanes"] = r.lanes;
    if (!r.untraced.empty()) j["untraced"] = r.untraced;
    if (!r.otherSizes.empty()) {
        json sizes = json::array();
        for (const SubgroupSizeRun& s : r.otherSizes) {
            json failures = json::array();
            for (const CaseFailure& f : s.failures)
                failures.push_back(
                    {{"case", f.index + 1}, {"detail", f.detail}, {"could_not_run", f.error}});
            json carried = json::array();
            for (const SubgroupSizeRun::Carried& c : s.carried)
                carried.push_back({{"case", c.index + 1}, {"lanes", c.lanes}});
            sizes.push_back({{"lanes", s.lanes},
                             {"emulated", emulatedSize(s.lanes)},
                             {"device", s.device},
                             {"pass", s.pass()},
                             {"cases_run", s.casesRun},
                             {"cases_carried", carried},
                             {"failures", failures},
                             {"error", s.error ? errorJson(*s.error) : json(nullptr)}});
        }
        j["other_subgroup_sizes"] = sizes;
        j["subgroup_size_verdict"] = subgroupSizeVerdict(p, r);
    }
    if (r.fresh) {
        json failures = json::array();
        for (const CaseFailure& f : r.fresh->failures)
            failures.push_back({{"case", f.index + 1}, {"detail", f.detail}});
        j["fresh_inputs"] = {
            {"seed", r.fresh->seed},
            {"pass", r.fresh->pass()},
            {"cases_run", r.fresh->casesRun},
            {"failures", failures},
            {"error", r.fresh->error ? errorJson(*r.fresh->error) : json(nullptr)}};
    }
    addRunsBeside(r, j);
    if (withTiming) {
        const StageTimings& t = r.timing;
        j["timing_ms"] = {{"compile", t.compileMs},
                          {"reflect", t.reflectMs},
                          {"pipelines", t.pipelineMs},
                          {"run", t.runMs},
                          {"check", t.checkMs},
                          {"total", t.totalMs},
                          {"gpu", t.gpuMs},
                          {"first_verdict", t.firstVerdictMs}};
        j["pipelines_built"] = t.pipelines;
        if (t.loopGuardMs > 0) j["timing_ms"]["loop_guard"] = t.loopGuardMs;
        if (t.traceRerunMs > 0) j["timing_ms"]["trace_rerun"] = t.traceRerunMs;
        if (t.traceReruns > 0) j["trace_reruns"] = t.traceReruns;
    }
    return j;
}

json puzzleJson(const Puzzle& p) {
    json bufs = json::array();
    for (const BufferDecl& b : p.buffers)
        bufs.push_back({{"name", b.name},
                        {"binding", b.binding},
                        {"type", elementKindName(b.type)},
                        {"role", roleKindName(b.role)},
                        {"dims", b.dims}});
    json cases = json::array();
    for (const TestCase& c : p.cases) // a hidden case: that it exists and what it is worth
        cases.push_back({{"name", c.hidden ? json(nullptr) : json(c.name)},
                         {"hidden", c.hidden},
                         {"points", c.points},
                         {"workgroup_size", c.hidden ? json(nullptr) : dims(c.workgroupSize)},
                         {"workgroups", c.hidden ? json(nullptr) : dims(c.workgroups)}});
    json limits = json::object();
    if (p.limits.globalReads) limits["global_reads"] = *p.limits.globalReads;
    if (p.limits.globalWrites) limits["global_writes"] = *p.limits.globalWrites;
    if (p.limits.globalEfficiency) limits["global_efficiency"] = *p.limits.globalEfficiency;
    if (p.limits.bankConflicts) limits["bank_conflicts"] = *p.limits.bankConflicts;
    if (p.limits.divergentRequests) limits["divergent_requests"] = *p.limits.divergentRequests;
    if (p.limits.globalAtomicsPerWorkgroup)
        limits["global_atomics_per_workgroup"] = *p.limits.globalAtomicsPerWorkgroup;
    json limitExprs = json::object(); // limits written as expressions: the numbers are the largest
    if (p.limits.globalReadsExpr) limitExprs["global_reads"] = p.limits.globalReadsExpr->text();
    if (p.limits.globalWritesExpr) limitExprs["global_writes"] = p.limits.globalWritesExpr->text();
    if (p.limits.divergentRequestsExpr)
        limitExprs["divergent_requests"] = p.limits.divergentRequestsExpr->text();
    if (p.limits.globalAtomicsPerWorkgroupExpr)
        limitExprs["global_atomics_per_workgroup"] = p.limits.globalAtomicsPerWorkgroupExpr->text();
    json rules = json::array();
    for (const RuleDecl& r : p.rules)
        rules.push_back({{"text", r.text}, {"from_workgroup_size", r.fromWorkgroupSize}});
    return {{"number", p.number},
            {"slug", p.slug},
            {"folder", p.folder},
            {"title", p.title},
            {"track", p.track},
            {"order", p.order},
            {"statement", p.statement},
            {"hint_count", p.hints.size()},
            {"buffers", bufs},
            {"cases", cases},
            {"limits", limits},
            {"limit_expressions", limitExprs},
            {"rules", rules},
            {"needs", needNames(p.needs)},
            {"pack", p.pack.empty() ? json(nullptr) : json(p.pack)},
            {"pack_root", p.packRoot.empty() ? json(nullptr) : json(p.packRoot)}};
}

} // namespace vkp::cli
