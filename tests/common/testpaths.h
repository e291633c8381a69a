#pragma once

#include <QString>

// Where a test finds the source tree (fixtures, scripts) and the build tree (dmtunectl, screenshots).
// The absolute paths are compiled into one generated file of the build tree (testpaths.cpp.in), not
// into every test's command line, so a second clone of the same commit hits the compiler cache in
// every other file (docs/development.md, "The build cache"). Paths given to the macros are relative
// to the tree's root and start with '/': DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/x.txt").
namespace testpaths {
QString sourceDir();
QString binaryDir();
}

#define DMTUNE_SOURCE_PATH(relative) (::testpaths::sourceDir() + QStringLiteral(relative))
#define DMTUNE_BINARY_PATH(relative) (::testpaths::binaryDir() + QStringLiteral(relative))
