"""Ask-the-requester templates: the goal leaves out a fact only the requesting colleague
knows; the persona must ask them in chat, be told, then act (`officegym.tasks.hidden`)."""
