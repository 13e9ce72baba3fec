using DivCon.Harness.Progress;
using Spectre.Console;

namespace DivCon.Cli.Output;

/// <summary>
/// Progress on a terminal: one bar per phase with its elapsed and remaining time, the phase's latest line as its
/// description (the current scheme and runs so far, then its result). Spectre.Console renders it; the experiment
/// reports from its own thread, and a task's value and description are safe to set from there.
/// </summary>
internal sealed class LiveProgress(ProgressContext context, int descriptionWidth) : IRunProgress
{
    // The columns right of the description: bar (BarWidth), percentage, elapsed and remaining time, and the gaps.
    private const int BarWidth = 20;
    private const int RightColumns = BarWidth + 5 + 9 + 9 + 6;

    private readonly Lock _lock = new();
    private ProgressTask? _task;

    /// <summary>Runs <paramref name="body"/> with a live display on <paramref name="console"/>.</summary>
    public static Task<T> RunAsync<T>(IAnsiConsole console, Func<IRunProgress, Task<T>> body) =>
        console.Progress()
            .AutoClear(false)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn { Width = BarWidth }, new PercentageColumn(),
                new ElapsedTimeColumn(), new RemainingTimeColumn())
            .StartAsync(context => body(new LiveProgress(context, Math.Max(24, console.Profile.Width - RightColumns))));

    /// <inheritdoc/>
    public void Phase(string name, double total)
    {
        lock (_lock)
        {
            if (_task is not null)
            {
                _task.Value = _task.MaxValue;
                _task.StopTask();
            }

            _task = context.AddTask(Markup.Escape(Fit(name)), maxValue: Math.Max(total, 1e-9));
        }
    }

    /// <inheritdoc/>
    public void Advance(double done, string line)
    {
        lock (_lock)
        {
            if (_task is not null)
            {
                _task.Value = Math.Min(done, _task.MaxValue);
                _task.Description = Markup.Escape(Shorten(line));
            }
        }
    }

    /// <inheritdoc/>
    public void Line(string line)
    {
        lock (_lock)
        {
            if (_task is null)
            {
                Phase(line, 1);
            }

            _task!.Description = Markup.Escape(Shorten(line));
        }
    }

    // The line without its "[  12.3 s] " stamp (the columns show the time), cut to one row of the terminal so the
    // bar and the times stay in view.
    private string Shorten(string line) =>
        Fit(line.StartsWith('[') && line.IndexOf("] ", StringComparison.Ordinal) is int i and > 0 ? line[(i + 2)..] : line);

    private string Fit(string text) => text.Length <= descriptionWidth ? text : string.Concat(text.AsSpan(0, descriptionWidth - 1), "…");
}
