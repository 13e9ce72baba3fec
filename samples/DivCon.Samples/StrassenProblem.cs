namespace DivCon.Samples;

/// <summary>A Strassen subproblem: the product <see cref="A"/> × <see cref="B"/> of two matrices of the same order.</summary>
/// <param name="A">The left factor.</param>
/// <param name="B">The right factor.</param>
public readonly record struct StrassenProblem(SquareMatrix A, SquareMatrix B);
