using DivCon.Harness.Progress;

namespace DivCon.Cli.Output;

/// <summary>
/// Progress as plain lines, for output that is not a terminal (a file, a pipe, CI): every line the experiment keeps
/// (a phase's start and result), and of its advances only the first past each quarter of the phase.
/// </summary>
internal sealed class PlainProgress(TextWriter error, string prefix) : IRunProgress
{
    private readonly Lock _lock = new();
    private double _total;
    private double _next;

    /// <inheritdoc/>
    public void Phase(string name, double total)
    {
        lock (_lock)
        {
            _total = total;
            _next = 0.25;
        }
    }

    /// <inheritdoc/>
    public void Advance(double done, string line)
    {
        lock (_lock)
        {
            if (_total <= 0 || _next >= 1 || done < _next * _total)
            {
                return;
            }

            while (_next < 1 && done >= _next * _total)
            {
                _next += 0.25;
            }
        }

        Line(line);
    }

    /// <inheritdoc/>
    public void Line(string line) => error.WriteLine($"{prefix}: {line}");
}
