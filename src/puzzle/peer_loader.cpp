#include "puzzle/peer_loader.h"

#include <cmath>
#include <regex>

namespace vkp {
namespace {} // namespace

uint64_t readBenchCount(const Reader& r, const toml::node* n, const std::string& key) {
    const std::string what =
        "'" + key + "' must be an element count from 1 to 2^40: 268435456 or \"2^28\"";
    if (n->is_integer()) {
        int64_t v = n->as_integer()->get();
        if (v < 1 || v > (int64_t(1) << 40)) r.fail(n, what);
        return static_cast<uint64_t>(v);
    }
    std::smatch m;
    std::string text = n->is_string() ? n->as_string()->get() : "";
    static const std::regex power(R"(2\^(\d{1,2}))");
    if (!std::regex_match(text, m, power) || std::stoi(m[1]) > 40) r.fail(n, what);
    return uint64_t(1) << std::stoi(m[1]);
}

namespace {

BenchPeer parsePeer(const Reader& r, const toml::table& t) {
    r.rejectUnknownKeys(t, {"name", "device", "n", "ms", "date", "how"}, "a [[peers]] entry");
    BenchPeer peer;
    peer.name = r.string(t, "name");
    peer.device = r.string(t, "device");
    peer.n = readBenchCount(r, r.required(t, "n"), "n");
    peer.ms = r.asNumber(r.required(t, "ms"), "ms");
    if (!(peer.ms > 0) || !std::isfinite(peer.ms))
        r.fail(t.get("ms"), "'ms' must be a time in milliseconds, more than 0");
    peer.date = r.string(t, "date");
    static const std::regex day(R"(\d{4}-\d{2}-\d{2})");
    if (!std::regex_match(peer.date, day))
        r.fail(t.get("date"), "'date' must be the day it was measured, as 2026-11-28");
    peer.how = r.string(t, "how");
    return peer;
}

} // namespace

void parsePeers(const Reader& r, const toml::table& root, Puzzle& p) {
    const toml::node* n = root.get("peers");
    if (!n) return;
    if (!n->is_array()) r.fail(n, "'peers' must be an array of tables ([[peers]])");
    for (const toml::node& e : *n->as_array())
        p.peers.push_back(parsePeer(r, r.asTable(&e, "each [[peers]] entry")));
}

} // namespace vkp
