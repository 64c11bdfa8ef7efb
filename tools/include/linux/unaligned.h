/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* PRAMFS tools: see ../pram_compat.h. */
#include "../pram_compat.h"
