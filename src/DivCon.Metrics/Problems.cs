namespace DivCon.Metrics;

/// <summary>Collecting every problem with an input before reporting them all, one sentence each.</summary>
public static class Problems
{
    /// <summary>Adds <paramref name="problem"/> to <paramref name="problems"/> when <paramref name="condition"/> holds.
    /// The sentence is built either way: it must not depend on the condition to be computable.</summary>
    public static void AddIf(this ICollection<string> problems, bool condition, string problem)
    {
        ArgumentNullException.ThrowIfNull(problems);
        if (condition)
        {
            problems.Add(problem);
        }
    }
}
