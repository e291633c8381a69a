#pragma once
// The name the GUI contract used; the functions live in tablediff.h.
#include "dm/tablediff.h"
