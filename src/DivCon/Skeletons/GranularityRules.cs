namespace DivCon.Skeletons;

/// <summary>
/// The automatic granularity rules of §4.5.2: the <see cref="GranularDivCon{TParam, TResult}.Granularity"/> that makes a
/// program produce about a target number of execute muscles.
/// </summary>
public static class GranularityRules
{
    /// <summary>
    /// For programs whose split divides the problem size by the branching factor: ⌈problemSize / targetMuscles⌉ (at
    /// least 1). With branching factor b, a balanced split and targetMuscles a power of b this gives exactly
    /// targetMuscles muscles; otherwise the next power of b above it, at most b · targetMuscles.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="problemSize"/> is negative or <paramref name="targetMuscles"/> is less than 1.</exception>
    public static long Balanced(long problemSize, long targetMuscles)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(problemSize);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(targetMuscles);
        return Math.Max(1, (problemSize + targetMuscles - 1) / targetMuscles);
    }

    /// <summary>
    /// Strassen's rule (§4.5.2): each split makes 7 subproblems of a quarter of the elements, so targetMuscles
    /// muscles need problemSize / 4^⌈log₇ targetMuscles⌉ (at least 1), giving 7^⌈log₇ targetMuscles⌉ muscles.
    /// The problem size is the number of matrix elements (order²).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="problemSize"/> is negative or <paramref name="targetMuscles"/> is less than 1.</exception>
    public static long Strassen(long problemSize, long targetMuscles)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(problemSize);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(targetMuscles);
        int depth = CeilingLog(targetMuscles, 7);
        long size = problemSize;
        for (int i = 0; i < depth && size > 1; i++)
        {
            size /= 4;
        }

        return Math.Max(1, size);
    }

    /// <summary>The smallest d ≥ 0 with <paramref name="logBase"/>^d ≥ <paramref name="value"/> (exact integer arithmetic).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="value"/> is less than 1 or <paramref name="logBase"/> is less than 2.</exception>
    public static int CeilingLog(long value, int logBase)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value);
        ArgumentOutOfRangeException.ThrowIfLessThan(logBase, 2);
        int depth = 0;
        long power = 1;
        while (power < value)
        {
            power = power > long.MaxValue / logBase ? long.MaxValue : power * logBase;
            depth++;
        }

        return depth;
    }
}
