/*
 * ContactMapForce's rules: the settings it refuses (one test per rule), updateParametersInContext, XML.
 */

#include "ContactMapTestSupport.h"

using namespace CoordinationTest;
