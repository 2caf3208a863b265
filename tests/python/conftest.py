"""pytest configuration: prints the selected platform cases before the run and, after it, how far each
PLUMED regtest folder is from PLUMED on each case; deselects the settings that spread_over_precisions gives to
another GPU precision (COORDINATION_TEST_QUICK=1, coordination_testing's docstring)."""
import coordination_testing


def pytest_configure(config):
    config.addinivalue_line("markers", "spread_over_precisions: with COORDINATION_TEST_QUICK=1, each setting runs on "
                                       "one precision of a GPU platform (coordination_testing.spread_precision)")


def pytest_collection_modifyitems(config, items):
    if not coordination_testing.spreads_settings():
        return
    kept, elsewhere = [], []
    for item in items:
        callspec = getattr(item, "callspec", None)
        case = callspec.params.get("case") if callspec is not None else None
        if (item.get_closest_marker("spread_over_precisions") is not None
                and isinstance(case, coordination_testing.PlatformCase) and case.gpu):
            # The test's name with its other parameters: tests without any spread too, each on its own precision.
            setting = item.originalname + "[" + callspec.id.replace(case.id, "", 1).strip("-") + "]"
            if coordination_testing.spread_precision(setting) != case.precision:
                elsewhere.append(item)
                continue
        kept.append(item)
    if elsewhere:
        config.hook.pytest_deselected(items=elsewhere)
        items[:] = kept


def pytest_report_header(config):
    cases = coordination_testing.PLATFORM_CASES
    return [f"coordination platform cases ({coordination_testing.PLATFORMS_VARIABLE}): " + ", ".join(
        case.id + (f" (cannot run: {case.problem})" if case.problem else "") for case in cases)]


def pytest_terminal_summary(terminalreporter):
    """Every compared quantity on the Reference platform; on other cases the failures and the worst ratio."""
    results = coordination_testing.PLUMED_RESULTS
    if not results:
        return
    terminalreporter.section("PLUMED regtests")
    for case_id, folders in results.items():
        reproduced = sum(all(passed for _, _, passed in quantities.values()) for quantities in folders.values())
        worst = (0.0, "")
        for folder, quantities in folders.items():
            for quantity, (deviation, tolerance, passed) in quantities.items():
                worst = max(worst, (deviation / tolerance, f"{folder} {quantity}"))
                if case_id == "Reference" or not passed:
                    terminalreporter.write_line(f"{'ok  ' if passed else 'FAIL'} {case_id:14s} {folder:34s} "
                                                f"{quantity:34s} max |deviation| {deviation:.2e} (tolerance "
                                                f"{tolerance:.2e})")
        terminalreporter.write_line(f"{case_id}: folders with every compared quantity within tolerance: {reproduced} "
                                    f"of {len(folders)} compared; largest deviation/tolerance "
                                    f"{worst[0]:.2f} ({worst[1]})")
