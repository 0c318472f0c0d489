#include "cli/own_case_args.h"

namespace vkp::cli {
namespace {

// "a=1,2,3" -> ("a", "1,2,3").
Result<std::pair<std::string, std::string>>
nameValue(const std::string& option, const std::string& text, const char* example) {
    size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        return Error{ErrorKind::Usage, "--" + option + " needs NAME=VALUE, e.g. --" + option + " " +
                                           example + ", not '" + text + "'"};
    return std::make_pair(text.substr(0, eq), text.substr(eq + 1));
}

} // namespace

bool hasOwnCase(const Args& args) {
    // Only --input and --set: --puzzles repeats too, and a pack's case is no case of one's own.
    return !args.all("input").empty() || !args.all("set").empty() || args.value("workgroups") ||
           args.value("workgroup-size");
}

Result<OwnCaseSpec> ownCaseSpec(const Args& args, size_t templateCase) {
    OwnCaseSpec spec;
    spec.templateCase = templateCase;
    for (const std::string& v : args.all("input")) {
        auto nv = nameValue("input", v, "a=1,2,3");
        if (!nv) return nv.error();
        spec.inputs.push_back(*nv);
    }
    for (const std::string& v : args.all("set")) {
        auto nv = nameValue("set", v, "SIZE=4");
        if (!nv) return nv.error();
        spec.constants.push_back(*nv);
    }
    spec.workgroups = args.value("workgroups").value_or("");
    spec.workgroupSize = args.value("workgroup-size").value_or("");
    return spec;
}

std::string cliFieldName(OwnCaseField field, const std::string& name) {
    // The options that name a buffer or a constant take it as their value's first word.
    if (field == OwnCaseField::Input) return "--input " + name;
    if (field == OwnCaseField::Constant) return "--set " + name;
    if (field == OwnCaseField::Workgroups) return "--workgroups";
    if (field == OwnCaseField::WorkgroupSize) return "--workgroup-size";
    return "--case";
}

Result<Puzzle> withOwnCase(const Args& args, const Puzzle& p, size_t templateCase) {
    auto spec = ownCaseSpec(args, templateCase);
    if (!spec) return spec.error();
    auto c = buildOwnCase(p, *spec, cliFieldName);
    if (!c) return c.error();
    return withCase(p, std::move(*c));
}

} // namespace vkp::cli
