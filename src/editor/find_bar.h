// The code editor's find bar: one row above the text with the query, "3 of 7", previous, next,
// match case and close. It searches the editor's TextDocument and selects the match; the editor
// scrolls to it and gives the text the keyboard back when the bar asks (FindEffect).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "text/text_document.h"

namespace vkp::ui {

// What the find bar says: "3 of 7" when the selection is a match, "7 matches" when it is not,
// "No results" when nothing matches.
std::string findSummary(const std::vector<text::TextRange>& matches,
                        std::pair<text::TextPos, text::TextPos> selection);

// What a call on the bar asks of the editor.
struct FindEffect {
    bool scrollToCursor = false; // a match was selected
    bool focusText = false;      // the bar closed: the keyboard goes back to the text
};

class FindBar {
  public:
    // Opening fills in the selected text (one line of it) and puts the keyboard in the field;
    // typing there selects the first match from where the search began; Enter and F3 go to the
    // next match, Shift+Enter and Shift+F3 to the previous one; Escape closes it.
    void open(const text::TextDocument& doc);
    FindEffect close();
    FindEffect next(text::TextDocument& doc, bool forward); // opens the bar when there is no query
    bool isOpen() const { return m_open; }
    const std::string& query() const { return m_query; }
    std::string summary(const text::TextDocument& doc) const; // "" while closed or empty
    // Every match to highlight ([] while closed or empty).
    std::vector<text::TextRange> matches(const text::TextDocument& doc) const;
    // The row, `width` pixels wide, at the cursor.
    FindEffect draw(text::TextDocument& doc, float width);

  private:
    bool m_open = false;
    bool m_focusField = false;  // put the keyboard in the field at the next draw
    bool m_selectField = false; // ...with its text selected (Ctrl+F again)
    int m_focusTries = 0;       // frames the field has been asked to take the keyboard
    bool m_matchCase = false;
    std::string m_query;
    text::TextPos m_start; // where typing searches from
};

} // namespace vkp::ui
