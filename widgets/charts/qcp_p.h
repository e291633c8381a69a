#pragma once
// The one way chart sources include qcustomplot.h. The project builds with QT_NO_KEYWORDS and QT_NO_FOREACH,
// but the header uses `signals:`, `emit` and `foreach`: spell them for it, then take them back. The Qt headers
// it pulls in come first so that the macros never reach them. Include this in .cpp files only: it is ~7 s of
// compile per file.
#include <QtCore/QCache>
#include <QtCore/QDateTime>
#include <QtCore/QDebug>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFlags>
#include <QtCore/QMargins>
#include <QtCore/QMultiMap>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QSharedPointer>
#include <QtCore/QStack>
#include <QtCore/QString>
#include <QtCore/QTimeZone>
#include <QtCore/QTimer>
#include <QtCore/QVector>
#include <QtGui/QMouseEvent>
#include <QtGui/QPaintEvent>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>
#include <QtGui/QPixmap>
#include <QtGui/QWheelEvent>
#include <QtPrintSupport/QtPrintSupport>
#include <QtWidgets/QWidget>

#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach(variable, container) for (variable : container)
#include <qcustomplot.h>
#undef foreach
#undef emit
#undef slots
#undef signals
