#include "judge/finding.h"

namespace vkp {

bool isEfficiencyFinding(FindingKind kind) {
    return kind == FindingKind::Uncoalesced || kind == FindingKind::BankConflict ||
           kind == FindingKind::Divergence || kind == FindingKind::GlobalAtomics;
}

const char* findingKindName(FindingKind kind) {
    switch (kind) {
    case FindingKind::SharedRace:
        return "race";
    case FindingKind::GlobalWriteConflict:
        return "write conflict";
    case FindingKind::OutOfBounds:
        return "out of bounds";
    case FindingKind::UninitialisedRead:
        return "uninitialised read";
    case FindingKind::ReadLimit:
        return "read limit";
    case FindingKind::WriteLimit:
        return "write limit";
    case FindingKind::LoopBudget:
        return "endless loop?";
    case FindingKind::DivergentBarrier:
        return "divergent barrier";
    case FindingKind::TraceOverflow:
        return "trace incomplete";
    case FindingKind::Rule:
        return "rule";
    case FindingKind::Uncoalesced:
        return "uncoalesced";
    case FindingKind::BankConflict:
        return "bank conflict";
    case FindingKind::Divergence:
        return "divergence";
    case FindingKind::GlobalAtomics:
        return "global atomics";
    case FindingKind::GlobalRace:
        return "race between workgroups";
    case FindingKind::UndefinedShuffle:
        return "undefined shuffle";
    case FindingKind::InputWritten:
        return "input written";
    }
    return "?";
}

} // namespace vkp
