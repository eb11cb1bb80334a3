/**
 * The learner's own answers in interview mode, one per question, kept in
 * localStorage so a reload or a closed tab loses nothing. Storage that is
 * full or blocked only means answers are not kept; the deck still works.
 */

const PREFIX = 'mcp-tasks-playground:interview:';

export function loadAnswer(questionId: string): string {
  try {
    return localStorage.getItem(PREFIX + questionId) ?? '';
  } catch {
    return '';
  }
}

/** Keeps `text` for `questionId`; an empty answer removes the entry. Returns whether it was kept. */
export function saveAnswer(questionId: string, text: string): boolean {
  try {
    if (text === '') localStorage.removeItem(PREFIX + questionId);
    else localStorage.setItem(PREFIX + questionId, text);
    return true;
  } catch {
    return false;
  }
}
