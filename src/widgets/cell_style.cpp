#include "widgets/cell_style.h"

#include <algorithm>

namespace vkp::ui {

std::string ordersText(const std::vector<uint32_t>& orders) {
    std::string s;
    for (size_t k = 0; k < orders.size() && k < 2; ++k)
        s += (k ? "," : "") + std::to_string(orders[k]);
    if (orders.size() > 2) s += "+";
    return s;
}

namespace {

// A wrong value outweighs a timeline change, which outweighs a read.
ImU32 bufferCellBackground(const BufferCellFacts& f, const Palette& pal) {
    if (f.wrong) return pal.cellWrongBg;
    if (f.changed) return pal.cellChangedBg;
    if (f.inRequest) return pal.requestCell;
    if (f.read) return pal.cellLinkedBg;
    if (f.inSector) return withAlpha(pal.sectorLine, 0.25f);
    return pal.cellBg;
}

std::vector<CellOutline> bufferCellOutlines(const BufferCellFacts& f, const Palette& pal) {
    std::vector<CellOutline> o;
    float e = f.emphasis; // the selected thread's cells, the step's and the selected cell
    if (f.inRequest) o.push_back({pal.sectorLine, 0, 2, 1.5f});
    if (f.read) o.push_back({pal.accent, 0, 2, 1.5f * e});
    if (f.written) o.push_back({pal.cellWritten, 0, 2, 2.5f * e});
    if (f.focused) o.push_back({pal.focus, e, 3, 2.5f * e});
    if (f.step) o.push_back({pal.stepOutline, 0, 2, 3.0f * e});
    if (f.selected) o.push_back({pal.text, 2 * e, 3, 2.0f * e});
    if (f.hovered) o.push_back({pal.text, 0, 2, 1.5f});
    return o;
}

ImU32 threadBackground(const ThreadCellFacts& f, const Palette& pal) {
    if (f.linked) return pal.threadLinked;
    if (f.spare) return pal.threadIdle;
    return pal.threadBg[f.subgroupParity % 2];
}

// An order number wins over the label: it says what the selected cell is about.
void threadText(const ThreadCellFacts& f, const Palette& pal, ThreadCellStyle& s) {
    if (f.order && f.roomForOrder) {
        s.textKind = ThreadText::Order;
        s.text = std::to_string(*f.order);
        s.textColour = pal.text;
    } else if (f.labelled) {
        s.textKind = ThreadText::Label;
        s.text = f.label;
        s.textColour = f.spare ? pal.dimText : pal.text;
    }
}

} // namespace

BufferCellStyle bufferCellStyle(const BufferCellFacts& f, const Palette& pal) {
    BufferCellStyle s;
    s.background = bufferCellBackground(f, pal);
    s.outlines = bufferCellOutlines(f, pal);
    s.text = f.unwritten ? "\xC2\xB7" : f.value;
    s.textColour = f.wrong ? pal.cellWrongText : f.unwritten ? pal.dimText : pal.text;
    if (f.orders) {
        s.orders = ordersText(*f.orders);
        s.ordersColour = f.ordersWritten ? pal.cellWritten : pal.text;
    }
    return s;
}

ThreadCellStyle threadCellStyle(const ThreadCellFacts& f, const Palette& pal) {
    ThreadCellStyle s;
    s.background = threadBackground(f, pal);
    s.rounding = f.cell > 12 ? 2.0f : 0.0f;
    if (f.flagged) s.under.push_back({pal.threadFinding, 0, 2, 2.0f});
    float e = f.emphasis;
    if (f.focused) s.under.push_back({pal.focus, e, 2, 2.5f * e});
    if (f.overLimit) {
        s.corner = true;
        s.cornerSize = std::max(4.0f, f.cell * 0.35f);
        s.cornerColour = pal.fail;
    }
    if (f.selected) s.over.push_back({pal.accent, e, 2, 3.0f * e});
    if (f.hovered) s.over.push_back({pal.text, 0, 2, 1.5f});
    threadText(f, pal, s);
    return s;
}

std::string threadLabel(uint32_t x, uint32_t y, int dims) {
    return dims == 1 ? std::to_string(x) : std::to_string(x) + "," + std::to_string(y);
}

} // namespace vkp::ui
