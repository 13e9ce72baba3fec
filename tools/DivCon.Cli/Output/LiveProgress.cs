using DivCon.Harness.Progress;
using Spectre.Console;

namespace DivCon.Cli.Output;

/// <summary>
/// Progress on a terminal: one bar per phase with its elapsed and remaining time, the phase's latest line as its
/// description (the current scheme and runs so far, then its result). Spectre.Console renders it; the experiment
/// reports from its own thread, and a task's value and description are safe to set from there.
/// </summary>
internal sealed class LiveProgress(ProgressContext context) : IRunProgress
{
    private readonly Lock _lock = new();
    private ProgressTask? _task;
    private string _name = string.Empty;

    /// <summary>Runs <paramref name="body"/> with a live display on <paramref name="console"/>.</summary>
    public static Task<T> RunAsync<T>(IAnsiConsole console, Func<IRunProgress, Task<T>> body) =>
        console.Progress()
            .AutoClear(false)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new ElapsedTimeColumn(), new RemainingTimeColumn())
            .StartAsync(context => body(new LiveProgress(context)));

    /// <inheritdoc/>
    public void Phase(string name, double total)
    {
        lock (_lock)
        {
            Finish();
            _name = name;
            _task = context.AddTask(Markup.Escape(name), maxValue: Math.Max(total, 1e-9));
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

    private void Finish()
    {
        if (_task is not null)
        {
            _task.Value = _task.MaxValue;
            _task.StopTask();
        }
    }

    // The line without its "[  12.3 s] " stamp (the columns show the time), kept to the phase's name when it is long.
    private string Shorten(string line)
    {
        string text = line.StartsWith('[') && line.IndexOf("] ", StringComparison.Ordinal) is int i and > 0 ? line[(i + 2)..] : line;
        return text.Length <= 100 ? text : $"{_name}: {text[^Math.Min(text.Length, 90)..]}";
    }
}
