// SPDX-License-Identifier: GPL-2.0-or-later
#include "tests.h"

int main(void)
{
	int failed = 0;

	failed += epr_test_parse();
	failed += epr_test_select();
	failed += epr_test_kernel();
	failed += epr_test_check();
	return failed ? 1 : 0;
}
