"""The pipeline runs every stage of a run in one kernel, and each stage still starts from an empty namespace."""

from stad_utils.pipeline import forget_stage, shared_kernel


def run_code(kernel, code: str) -> list[dict]:
    """Execute ``code`` in the kernel; the iopub messages it produced (streams, errors)."""
    client = kernel.blocking_client()
    client.start_channels()
    messages = []
    try:
        client.wait_for_ready(timeout=60)
        client.execute_interactive(code, timeout=60, output_hook=messages.append)
    finally:
        client.stop_channels()
    return messages


def printed(messages: list[dict]) -> str:
    return "".join(m["content"].get("text", "") for m in messages if m["msg_type"] == "stream")


def test_a_stage_does_not_see_the_previous_stages_variables_or_figures(tmp_path):
    with shared_kernel(tmp_path) as kernel:
        run_code(kernel, "import os, matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
                         "leftover = 1\nplt.figure()")
        assert printed(run_code(kernel, "print('leftover' in dir(), len(plt.get_fignums()))")) == "True 1\n"
        forget_stage(kernel)
        seen = printed(run_code(kernel, "import sys, os\nprint('leftover' in dir(), 'plt' in dir(), "
                                        "len(sys.modules['matplotlib.pyplot'].get_fignums()), os.getcwd())"))
        assert seen == f"False False 0 {tmp_path}\n"  # the modules stay imported: that is the point
