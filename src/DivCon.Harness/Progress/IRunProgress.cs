namespace DivCon.Harness.Progress;

/// <summary>
/// Where a long experiment says how far it is: a run is a sequence of phases (a program's C^SP runs, one scheme's
/// multiprogram phase, one program's factored rounds), each of a known length. The CLI shows them as live bars on a
/// terminal and as a few plain lines otherwise; tests collect the lines.
/// </summary>
public interface IRunProgress
{
    /// <summary>A new phase begins (the previous one, if any, is over).</summary>
    /// <param name="name">What it is, for example <c>rep 1/1 shared</c>.</param>
    /// <param name="total">Its length in its own units (seconds of a timed phase, or runs).</param>
    void Phase(string name, double total);

    /// <summary>The current phase has reached <paramref name="done"/> of its total; <paramref name="line"/> says so in words.</summary>
    void Advance(double done, string line);

    /// <summary>A line worth keeping whatever the display: a phase's start or its result.</summary>
    void Line(string line);
}
