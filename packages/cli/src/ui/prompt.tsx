import { Box, render, Text, useApp, useInput } from 'ink';
import { useState } from 'react';

export type Question = { name: string; label: string; secret?: boolean };

function Prompt({
  questions,
  onDone,
}: {
  questions: Question[];
  onDone: (answers: Record<string, string> | null) => void;
}) {
  const { exit } = useApp();
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [value, setValue] = useState('');
  const current = questions[index];

  useInput((input, key) => {
    if (!current) return;
    if (key.ctrl && input === 'c') {
      onDone(null);
      exit();
      return;
    }
    if (key.return) {
      if (value.trim() === '') return;
      const next = { ...answers, [current.name]: current.secret ? value : value.trim() };
      setAnswers(next);
      setValue('');
      if (index + 1 >= questions.length) {
        onDone(next);
        exit();
      } else {
        setIndex(index + 1);
      }
      return;
    }
    if (key.backspace || key.delete) {
      setValue((v) => v.slice(0, -1));
      return;
    }
    if (input && !key.ctrl && !key.meta) setValue((v) => v + input);
  });

  return (
    <Box flexDirection="column">
      {questions.slice(0, index).map((q) => (
        <Text key={q.name}>
          <Text color="green">✔</Text> {q.label}: {q.secret ? '•'.repeat(8) : answers[q.name]}
        </Text>
      ))}
      {current ? (
        <Text>
          <Text color="cyan">?</Text> {current.label}: {current.secret ? '•'.repeat(value.length) : value}
          <Text inverse> </Text>
        </Text>
      ) : null}
    </Box>
  );
}

/**
 * Asks the questions one after another on the terminal (on stderr, so stdout stays clean for
 * `--json`); secrets are shown as dots. Resolves null when the user presses Ctrl+C.
 */
export async function ask(questions: Question[]): Promise<Record<string, string> | null> {
  let result: Record<string, string> | null = null;
  const app = render(<Prompt questions={questions} onDone={(answers) => (result = answers)} />, {
    stdout: process.stderr,
    exitOnCtrlC: false,
  });
  await app.waitUntilExit();
  return result;
}
