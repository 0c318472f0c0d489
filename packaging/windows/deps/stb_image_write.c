// stb_image_write's implementation, which Debian's libstb-dev has compiled into libstb on Linux.
// File names are UTF-8, as everywhere in vkpuzzles (Windows' wide-character API underneath).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBIW_WINDOWS_UTF8
#include "stb_image_write.h"
