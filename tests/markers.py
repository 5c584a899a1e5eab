"""Markers for the inner loop, given by where a test lives (one table, not a line per file).

    pytest -m "not slow"      # the inner loop: engines, store, API, clients' units (≈2 min)
    pytest -m browser         # headless Chromium (tests/web, the SSE and push pages)
    pytest -m faults          # Redis kills, pauses, rollbacks, failovers
    pytest -m tools           # needs an outside program: tmux, kubectl, node, go, javac, promtool

`slow` is the union of what takes seconds a test: browsers, fault injection, several server
processes, whole random games of the heavy engines, and every single test measured at a second
or more (tests/slow_tests.txt). A test can also mark itself
(`@pytest.mark.slow`); this table only adds marks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

# Folder or file prefix -> marks every test under it gets.
BY_PATH: dict[str, tuple[str, ...]] = {
    "tests/web/": ("browser", "slow"),
    "tests/faults/": ("faults", "slow"),
    "tests/server/test_browser_sse.py": ("browser", "slow"),
    "tests/clients/test_play_tmux.py": ("tools", "slow"),
    "tests/clients/test_match_tmux.py": ("tools", "slow"),
    "tests/server/test_typescript_client.py": ("tools", "slow"),
    "tests/server/test_buf.py": ("tools",),
    "tests/clients/test_grpc_web_docs.py": ("tools",),
    "tests/clients/test_ts_sdk.py": ("tools", "slow"),
    "tests/clients/test_ts_sdk_error_metadata.py": ("tools", "slow"),
    "tests/clients/test_ts_sdk_join_outage.py": ("tools", "slow"),
    "tests/clients/test_ts_sdk_write_patience.py": ("tools", "slow"),
    # Node and the built TypeScript SDK like its two siblings (the inner loop has the same create
    # through the Python SDK: tests/clients/test_sdk_portal_create.py).
    "tests/clients/test_ts_sdk_portal.py": ("tools", "slow"),
    "tests/clients/test_codegen.py": ("tools", "slow"),
    "tests/k8s/test_backup_drill.py": ("slow",),
    "tests/k8s/": ("tools",),
    # Several server processes, or whole games over the API: seconds each.
    "tests/clients/test_cli.py": ("slow",),
    "tests/clients/test_loadtest.py": ("slow",),
    "tests/clients/test_sdk.py": ("slow",),
    "tests/portal/test_portal_flow.py": ("slow",),
    "tests/server/test_imports.py": ("slow",),
    "tests/server/test_legal_offload.py": ("slow",),
    "tests/server/test_replicas.py": ("slow",),
    "tests/server/test_list_events_after.py": ("slow",),
    "tests/server/test_admin_and_settings.py": ("slow",),
    "tests/server/test_bots_off_path.py": ("slow",),
    "tests/server/test_workers.py": ("slow",),
    "tests/server/test_hostile_clients.py": ("slow",),
    "tests/server/test_acceptors.py": ("slow",),
    "tests/server/test_contracts.py": ("slow",),
    "tests/server/test_fuzz.py": ("slow",),
    # Whole random games of the heavy engines.
    "tests/engines/founders_of_gloomhaven/test_random_play.py": ("slow",),
    "tests/engines/new_bedford/test_kit_captains.py": ("slow",),
    "tests/engines/new_bedford/test_legal_actions.py": ("slow",),
    "tests/engines/phoenicia/test_every_version.py": ("slow",),
    # Single tests of 3 s or more in the inner loop (a server restarted or stopped, worker
    # processes, a replica waited for): measured with --durations=0, 2026-12-07.
    "tests/store/test_redis_sentinel.py::test_min_replicas_ack_refuses_then_lands_exactly_once": ("slow",),
    "tests/notify/test_admin_store_flags.py::test_stats_lists_every_queued_target_without_tablero_webhooks": ("slow",),
    "tests/matchmaking/test_grpc_and_rest.py::test_the_workers_of_one_sqlite_file_share_the_queue": ("slow",),
    "tests/store/test_redis.py::test_a_watch_ends_with_store_error_when_the_server_goes_away": ("slow",),
    "tests/server/test_readiness.py::test_readiness_follows_the_store_and_liveness_does_not": ("slow",),
    "tests/server/test_readyz_detail.py::test_readyz_names_why_the_store_is_unreachable": ("slow",),
    "tests/ratings/test_leaderboard.py::test_strong_users_outrank_weak_ones_and_a_rebuild": ("slow",),
    "tests/server/test_bot_queue_gauges.py::test_a_server_without_a_pool_reports_the_turns_no_worker_takes": ("slow",),
    "tests/portal/test_portal_sqlite.py::test_lobby_and_clock_survive_a_restart": ("slow",),
    "tests/server/test_ops_logs_and_timeouts.py::test_slow_headers_are_logged_and_counted": ("slow",),
    "tests/server/test_ops_logs_and_timeouts.py::test_every_line_names_its_process_and_worker": ("slow",),
    "tests/server/test_replicated_answers.py::test_a_retried_create_and_a_join_wait_for_replicas": ("slow",),
    "tests/notify/test_webhooks.py::test_dead_letters_are_listed_and_replayed_with_their_webhook_id": ("slow",),
    "tests/notify/test_orphaned_endpoint.py": ("slow",),
    # `tablero admin` run as a program, once per case (1-1.5 s each)
    "tests/server/test_admin_store_settings.py": ("slow",),
    "tests/clients/test_sdk_write_patience.py::test_an_act_sent_during_a_restart_lands_once_the_server_is_back": ("slow",),
    "tests/server/test_idle_store_calls.py::test_an_idle_server_asks_its_redis_a_few_times_a_second": ("slow",),
    # The same, measured again 2026-12-07 (evening) with --durations=40 under a load of about 3x:
    # 9 s or more there. Outside programs run over the whole of k8s/ (promtool, a wheel build,
    # Grafana's schema), whole games rendered or replayed, worker processes, push retries.
    "tests/k8s/test_monitoring.py": ("slow",),
    "tests/k8s/test_dockerfile.py": ("slow",),
    "tests/k8s/test_grafana_schema.py": ("slow",),
    "tests/k8s/test_bot_workers.py": ("slow",),
    "tests/engines/test_bots_fair.py::test_solo_founders_same_view_same_decision": ("slow",),
    "tests/engines/test_bots_fair.py::test_same_view_same_decision[new-bedford]": ("slow",),
    "tests/engines/test_field_acceptance.py::test_compiled_acceptance_agrees_with_validate_value[founders-of-gloomhaven]": ("slow",),
    "tests/clients/test_render_presentation.py::test_no_python_none_on_a_board[founders-of-gloomhaven-3": ("slow",),
    "tests/clients/test_render_presentation.py::test_no_python_none_on_a_board[phoenicia-3": ("slow",),
    "tests/clients/test_render_presentation.py::test_no_python_none_on_a_board[riverboat-3": ("slow",),
    "tests/clients/test_founders_log_then.py::test_an_old_votes_line_names_the_building_voted_for": ("slow",),
    "tests/clients/test_spanish_captain_names.py::test_captains_take_their_article_in_spanish_log_lines": ("slow",),
    "tests/clients/test_render_founders.py::test_renders_real_games": ("slow",),
    "tests/clients/test_render_founders.py::test_real_vote_in_progress_hides_cast_votes": ("slow",),
    "tests/clients/test_render_founders_spanish.py::test_a_whole_game_of_founders_reads_in_spanish_in_the_terminal": ("slow",),
    "tests/clients/test_own_goods_words.py::test_the_goods_line_is_worded_not_the_views_field_names[founders-of-gloomhaven": ("slow",),
    "tests/clients/test_readme.py::test_readme_example_runs": ("slow",),
    "tests/notify/test_push_gone_game.py": ("slow",),
    "tests/notify/test_push_stale_turn.py": ("slow",),
    "tests/notify/test_inbox_gone_games.py::test_a_turn_of_an_expired_game_leaves_the_list": ("slow",),
    "tests/notify/test_webhook_reserved_ids.py": ("slow",),
    "tests/notify/test_webhooks.py::test_simultaneous_turns_on_a_sqlite_file_through_the_worker_process": ("slow",),
    "tests/server/test_secret_rotation.py::test_the_documented_rotation_recipe_keeps_old_tokens_valid": ("slow",),
    "tests/server/test_bot_idle_priority.py": ("slow",),
    "tests/clients/test_sdk_grpc_close.py": ("slow",),
}

# Single tests of a second or more, measured: tests/slow_tests.txt (scripts/slow_tests.py).
MEASURED = Path(__file__).with_name("slow_tests.txt")


def _measured() -> frozenset[str]:
    # "<test id>  # <seconds>"; lines starting with "#" are comments (an id may hold "#")
    lines = (line.split("  #", 1)[0].strip() for line in MEASURED.read_text().splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


# The generic kit's random playthroughs (tests/engines/test_kit.py and test_kit_<engine>.py): the
# inner loop keeps one seed at the smallest table.
KIT = ("tests/engines/test_kit", "::test_random_playthrough_replays_and_hides[")


def _kit_inner(nodeid: str) -> bool:
    # Founders' 2-player game is its heaviest per seed; its solo game stands in for it.
    smallest = "-1p-" in nodeid or ("-2p-" in nodeid and "founders-of-gloomhaven" not in nodeid)
    return "seed1000]" in nodeid and smallest


def _marks_for(nodeid: str, measured: frozenset[str] = frozenset()) -> set[str]:
    marks: set[str] = {"slow"} if nodeid in measured else set()
    for prefix, names in BY_PATH.items():
        if nodeid.startswith(prefix):
            marks.update(names)
    if nodeid.startswith(KIT[0]) and KIT[1] in nodeid and not _kit_inner(nodeid):
        marks.add("slow")
    return marks


# Whole games clicked in a browser and Redis kills under load depend on timing a loaded machine
# can upset (a click on a table being redrawn, a copy taken a few ms early): such a test that
# fails is run once more, and the -ra summary names every rerun (pytest-rerunfailures), so a
# flaky test is seen, not hidden. A test that fails twice fails.
RERUN_ONCE = ("browser", "faults")


# About how long a test with each mark takes (seconds on a 2-core machine, --durations=0): the
# estimate by which `longest_files_first` orders the files. The first mark found counts.
COST = {"browser": 4.0, "tools": 3.0, "faults": 5.0, "slow": 1.5}
COST_UNMARKED = 0.05


def longest_files_first(items: list[pytest.Item]) -> None:
    """Files in order of their estimated time, longest first, each file's tests in their own order.
    With `--dist loadfile` (and xdist's own reordering by test count turned off in pyproject.toml)
    a worker takes the next file when it is done with one: a long file taken last ran alone at
    the end while the other workers idled."""
    cost: dict[str, float] = {}
    first: dict[str, int] = {}
    for n, item in enumerate(items):
        path = item.nodeid.split("::")[0]
        first.setdefault(path, n)
        names = {m.name for m in item.iter_markers()}
        cost[path] = cost.get(path, 0.0) + next((c for m, c in COST.items() if m in names), COST_UNMARKED)
    items.sort(key=lambda item: (-cost[item.nodeid.split("::")[0]], first[item.nodeid.split("::")[0]]))


def apply(items: list[pytest.Item]) -> None:
    measured = _measured()
    for item in items:
        marks = _marks_for(item.nodeid, measured)
        for name in sorted(marks - {m.name for m in item.iter_markers()}):
            item.add_marker(getattr(pytest.mark, name))
        if {m.name for m in item.iter_markers()} & set(RERUN_ONCE) and item.get_closest_marker("flaky") is None:
            item.add_marker(pytest.mark.flaky(reruns=1))
