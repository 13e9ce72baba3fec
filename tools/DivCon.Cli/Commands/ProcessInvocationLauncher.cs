using System.Diagnostics;
using System.Globalization;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Progress;
using DivCon.Harness.Reporting;

namespace DivCon.Cli.Commands;

/// <summary>
/// Runs each invocation of <c>divcon cyclic --repeat N</c> as a child process of this command line (the same options,
/// plus <c>--invocation k --invocations N</c> and a folder of its own), forwards its progress lines, and reads back the
/// <c>invocation.json</c> it wrote. The child is a fresh process: its own JIT, heap, thread pool and workers, which is
/// what makes invocations independent. Canceling kills the child (and only it) and fails the invocation.
/// </summary>
/// <param name="self">How to start this command line.</param>
/// <param name="arguments">The child's arguments for invocation k of N writing into a folder.</param>
/// <param name="folder">The folder of invocation k (created by the child).</param>
/// <param name="expected">The configuration every child must report.</param>
/// <param name="estimateSeconds">A first guess of one invocation's length, for the progress bar, until one has finished.</param>
internal sealed class ProcessInvocationLauncher(
    CliSelf self,
    Func<int, int, string, IReadOnlyList<string>> arguments,
    Func<int, string> folder,
    CyclicPlanRecord expected,
    double estimateSeconds) : IInvocationLauncher
{
    private readonly List<double> _elapsed = [];

    /// <inheritdoc/>
    public async Task<CyclicInvocation> RunAsync(int invocation, int of, IRunProgress progress, CancellationToken cancellationToken)
    {
        string dir = folder(invocation);
        var start = new ProcessStartInfo(self.FileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string a in self.PrefixArguments.Concat(arguments(invocation, of, dir)))
        {
            start.ArgumentList.Add(a);
        }

        double estimate = _elapsed.Count > 0 ? _elapsed.Average() : estimateSeconds;
        string label = string.Create(CultureInfo.InvariantCulture, $"invocation {invocation}/{of}");
        progress.Phase(label, estimate);
        var clock = Stopwatch.StartNew();
        var tail = new Queue<string>();
        using var process = new Process { StartInfo = start };
        if (!process.Start())
        {
            throw new ProgramRunException(label, $"Could not start {label} ({self.FileName}).");
        }

        // The child's progress goes to its stderr as plain lines ("divcon cyclic: …"); its stdout is one summary line.
        Task forward = Task.Run(async () =>
        {
            while (await process.StandardError.ReadLineAsync(CancellationToken.None) is { } line)
            {
                string text = line.StartsWith("divcon ", StringComparison.Ordinal) && line.IndexOf(": ", StringComparison.Ordinal) is int i and > 0 ? line[(i + 2)..] : line;
                tail.Enqueue(text);
                if (tail.Count > 5)
                {
                    tail.Dequeue();
                }

                progress.Advance(clock.Elapsed.TotalSeconds, $"{label}: {text}");
            }
        }, CancellationToken.None);
        Task<string> output = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
        try
        {
            await process.WaitForExitAsync(cancellationToken);
        }
        catch (OperationCanceledException)
        {
            // Only this child, which this launcher started, and its own descendants.
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(30), CancellationToken.None);
            throw;
        }

        // Required: forward has ended (awaited here) before tail is read; only forward writes it, so it needs no lock.
        await Task.WhenAll(forward, output).WaitAsync(TimeSpan.FromSeconds(30), CancellationToken.None);
        if (process.ExitCode != 0)
        {
            throw new ProgramRunException(label,
                string.Create(CultureInfo.InvariantCulture, $"The child process of {label} exited with code {process.ExitCode}: {string.Join(" | ", tail)}"));
        }

        string path = Path.Combine(dir, $"{CyclicInvocationFile.FileKind}.json");
        CyclicInvocationFile file = ResultKinds.Invocation.Read(await File.ReadAllTextAsync(path, cancellationToken));
        if (file.Invocation.Invocation != invocation || !SameConfiguration(file.Configuration, expected))
        {
            throw new ProgramRunException(label, $"The child process of {label} ran another configuration than asked ({path}).");
        }

        _elapsed.Add(clock.Elapsed.TotalSeconds);
        return file.Invocation;
    }

    /// <summary>Whether two records describe the same test (the invocation count and auto-sizing target aside).</summary>
    public static bool SameConfiguration(CyclicPlanRecord a, CyclicPlanRecord b) =>
        a.Kind == b.Kind && a.Programs.SequenceEqual(b.Programs) && a.Schemes.SequenceEqual(b.Schemes) && a.SpScheme == b.SpScheme
        && a.Size == b.Size && a.DurationSeconds == b.DurationSeconds && a.SpRuns == b.SpRuns && a.WarmupRuns == b.WarmupRuns
        && a.Processors.SequenceEqual(b.Processors) && a.Seed == b.Seed && a.ShuffleSchemes == b.ShuffleSchemes
        && a.MaxWarmupRuns == b.MaxWarmupRuns && a.SteadyCv == b.SteadyCv && a.SequentialRuns == b.SequentialRuns && a.OneWorkerRuns == b.OneWorkerRuns;
}
