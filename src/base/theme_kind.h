// Which of the app's themes is on: a learner's setting (store/user_state.h saves it) that the
// theme (widgets/theme.h) draws. Here in base, the one layer below both, so that widgets know no
// session; it is a plain enum, with its names in the settings file kept by user_state.
#pragma once

namespace vkp {

// HighContrast: black on white, saturated colours (projectors; presenter mode offers it).
enum class ThemeKind { Dark, Light, HighContrast };

} // namespace vkp
