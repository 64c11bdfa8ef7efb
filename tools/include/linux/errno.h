/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* PRAMFS tools: the system's header, then ../pram_compat.h. */
#include_next <linux/errno.h>
#include "../pram_compat.h"
